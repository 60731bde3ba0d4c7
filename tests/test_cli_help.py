"""Every option of every `evalcore` command has a help line that shows its default.

The parsers are built inside each command's main(); rather than reshaping those functions,
the test intercepts the parse call and takes the parser argparse was asked to run, so it
checks exactly the parser a user's `evalcore COMMAND --help` prints.
"""

import argparse

import pytest

from evalcore import cli

# Actions whose default needs no words: a flag is off unless given, --help is --help.
NO_DEFAULT_NEEDED = (argparse._HelpAction, argparse._VersionAction, argparse._StoreTrueAction,
                     argparse._StoreFalseAction, argparse._CountAction)


class _Captured(Exception):
    def __init__(self, parser):
        super().__init__("parser captured")
        self.parser = parser


def _capture(monkeypatch, command, argv):
    """The parser `evalcore COMMAND ...` parses its arguments with."""
    def grab(self, *args, **kwargs):
        raise _Captured(self)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", grab)
    monkeypatch.setattr(argparse.ArgumentParser, "parse_intermixed_args", grab)
    with pytest.raises(_Captured) as caught:
        cli.main([command, *argv])
    return caught.value.parser


# Each command with arguments its main() accepts up to the parse (none are parsed for real).
COMMANDS = {"ranking-evaluate": ["x.json"], "span-evaluate": ["x.json"], "score": ["x.json"],
            "trec": ["q", "r"], "compare": ["q", "a", "b", "-m", "P@1"], "serve": [],
            "report": ["q", "a", "-m", "P@1", "-o", "r.html"],
            "conll": ["gold.conll"]}


def test_every_subcommand_of_the_overview_is_walked():
    assert set(COMMANDS) == set(cli.SUBCOMMANDS)


def _renderings(default):
    """The ways a help line may write a default: as given, with thousands separators, %g."""
    texts = {str(default)}
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        texts |= {f"{default:,}", f"{default:g}", f"{default:,g}"}
    return texts


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_option_has_help_that_shows_its_default(monkeypatch, command):
    parser = _capture(monkeypatch, command, COMMANDS[command])
    formatter = parser._get_formatter()
    faults = []
    for action in parser._actions:
        name = "/".join(action.option_strings) or action.dest
        if not action.help or action.help == argparse.SUPPRESS:
            faults.append(f"{name}: no help line")
            continue
        text = formatter._expand_help(action)
        if isinstance(action, NO_DEFAULT_NEEDED) or action.required:
            continue  # a flag is off unless given; a required argument has no default
        if "default" not in text:
            faults.append(f"{name}: the help does not say its default: {text!r}")
        elif action.default is not None and not any(r in text for r in _renderings(action.default)):
            faults.append(f"{name}: the help does not show the default {action.default!r}: {text!r}")
    assert not faults, f"evalcore {command}:\n" + "\n".join(faults)


def test_serve_help_shows_host_and_port_defaults(monkeypatch, capsys):
    # The issue's own case, end to end: the printed help, not just the parser's actions.
    with pytest.raises(SystemExit) as exited:
        cli.main(["serve", "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    options = out[out.index("\noptions:"):]
    host = options[options.index("\n  --host"):].split("\n  -")[1]
    port = options[options.index("\n  --port"):].split("\n  -")[1]
    assert "127.0.0.1" in host and "8080" in port


def test_overview_describes_its_options(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "--help" in out and "--version" in out
