"""Decoding a file's bytes and numbering its lines agree with what CPython does.

``decode_source`` reads a UTF-8 file without a BOM or "coding" on its first two lines
without tokenize's cookie search, and ``split_lines`` splits a text without ``\\r`` with
``str.split``; each is compared with tokenize's cookie search and with the line breaks
CPython's tokenizer counts.
"""

from __future__ import annotations

import codecs
import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semantics_lint.lint import engine
from semantics_lint.lint.core.model import Finding
from semantics_lint.lint.core.source import readable_text, split_lines


def _reference_decode(source: bytes) -> str | tuple[str, int, int]:
    """decode_source as it was: tokenize's cookie search for every file."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError as exc:
        return (f"cannot be decoded: {exc.msg}", 1, 0)
    if encoding == "utf-8-sig" or source.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
    try:
        return source.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return ("error", -1, -1)


def _shape(result: str | Finding) -> str | tuple[str, int, int]:
    if isinstance(result, str):
        return result
    if "cannot be decoded as" in result.message:
        return ("error", -1, -1)
    return (result.message.replace("the file ", ""), result.start.line, result.start.column)


_PIECES = [
    b"x = 1",
    b"\n",
    b"\r\n",
    b"\r",
    b"# -*- coding: latin-1 -*-",
    b"# coding=utf-8",
    b"# vim: set fileencoding=cp1252 :",
    b"# coding: nonsense",
    b"coding",
    b"#!/usr/bin/env python",
    b"   ",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\xe9",
    "\u00e9".encode(),
    "\u20ac".encode(),
    b"\x00",
    b"\xed\xa0\x80",
]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=10))
def test_decoding_agrees_with_the_cookie_search(pieces: list[bytes]) -> None:
    source = b"".join(pieces)
    result = engine.decode_source(source)
    expected = _reference_decode(source)
    if isinstance(expected, str):
        assert result == expected
    else:
        assert isinstance(result, Finding)
        assert _shape(result) == expected


def test_decoding_cases() -> None:
    assert engine.decode_source(b"x = '\xc3\xa9'\n") == "x = '\u00e9'\n"
    assert engine.decode_source(b"\xef\xbb\xbfx = 1\n") == "x = 1\n"
    assert engine.decode_source(b"# coding: latin-1\nx = '\xe9'\n") == "# coding: latin-1\nx = '\u00e9'\n"
    # Not UTF-8 and no cookie on the first line: tokenize words the error.
    broken = engine.decode_source(b"x = '\xe9'\n")
    assert isinstance(broken, Finding) and "encoding declaration" in broken.message
    # Not UTF-8 further down: the decoder says where.
    later = engine.decode_source(b"x = 1\ny = 2\nz = '\xe9'\n")
    assert isinstance(later, Finding) and "as utf-8" in later.message and later.start.line == 3


_NEWLINES = re.compile(r"\r\n|\r|\n")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab \n\r\x0c\x0b\x1c\x85\u2028\u2029")), max_size=40))
def test_split_lines_splits_as_cpython_counts_lines(text: str) -> None:
    assert split_lines(text) == _NEWLINES.split(text)


# A cookie naming a codec that is not a text encoding (rot13, base64: ``decode`` raises
# LookupError), or a text codec that raises a bare UnicodeError (punycode, undefined).
_ODD_CODECS = ["rot13", "base64", "hex", "zlib", "punycode", "undefined"]


@pytest.mark.parametrize("codec", _ODD_CODECS)
def test_a_cookie_naming_an_odd_codec_is_one_sem001(codec: str) -> None:
    source = f"# coding: {codec}\nx = described_result(facts=[])\n".encode()
    result = engine.decode_source(source)
    assert isinstance(result, Finding) and result.code == "SEM001"
    assert f"cannot be decoded as {codec}" in result.message
    text = readable_text(source)  # total: what a noqa search and a diff read
    if codec != "punycode":  # punycode decodes anything, to nonsense
        assert text.endswith("x = described_result(facts=[])\n")


@pytest.mark.parametrize("codec", ["rot13", "punycode"])
def test_the_command_reports_an_odd_codec_in_every_mode(codec: str, tmp_path: Path) -> None:
    path = tmp_path / "tool.py"
    path.write_bytes(
        f"# coding: {codec}\nfrom semantics_lint.runtime import described_result\n"
        "x = described_result(facts=[], provenance={'measured_at': 1})\n".encode()
    )
    for extra, code in (((), 1), (("--output-format", "full"), 1), (("--add-noqa",), 0)):
        done = subprocess.run(
            [sys.executable, "-m", "semantics_lint", "check", "--no-cache", *extra, "tool.py"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == code, (extra, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr and "internal error" not in done.stdout + done.stderr
        if not extra or extra[0] != "--add-noqa":
            assert f"SEM001 the file cannot be decoded as {codec}" in done.stdout
