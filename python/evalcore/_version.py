"""The package version: the single source read by the build and by the envelope."""

__version__ = "0.1.0"
