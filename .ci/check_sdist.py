"""Checks an sdist (.ci/run's wheel stage): it holds what building and testing need and no
work folder. Usage: python .ci/check_sdist.py dist/evalcore_exact-X.Y.Z.tar.gz"""

import sys
import tarfile

REQUIRED = ["LICENSE", "README.md", "CMakeLists.txt", "pyproject.toml", "docs/", "examples/", "cpp/",
            "python/evalcore/", "tests/", "tests/data/"]
FORBIDDEN = ["build/", "dist/", "wheelhouse/", ".venv", ".hypothesis/", ".pytest_cache/", ".mypy_cache/", ".git/"]


def main(path):
    with tarfile.open(path) as sdist:
        names = sdist.getnames()
    top = names[0].split("/")[0]
    inside = [name[len(top) + 1:] for name in names if name.startswith(top + "/")]
    missing = [want for want in REQUIRED
               if not any(name == want.rstrip("/") or name.startswith(want) for name in inside)]
    # A work folder anywhere (build/ under a test folder, a .venv beside it) is one too many.
    unwanted = sorted({name for name in inside for bad in FORBIDDEN
                       if name.startswith(bad) or "/" + bad in "/" + name}
                      | {name for name in inside if name.endswith((".so", ".pyd", ".pyc"))})
    print(f"{path}: {len(inside)} entries under {top}/")
    for want in REQUIRED:
        print(f"  {want:20} {'missing' if want in missing else 'present'}")
    if missing or unwanted:
        for name in unwanted[:20]:
            print(f"  unwanted: {name}")
        sys.exit(f"sdist check failed: {len(missing)} missing, {len(unwanted)} unwanted")
    print("sdist check: ok")


if __name__ == "__main__":
    main(sys.argv[1])
