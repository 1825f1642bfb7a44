"""No key twice in a catalog: a .po file may hold the same msgid twice (Babel keeps the last
one silently), and a new message under an old key changes the old one's words everywhere."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "src" / "robinson" / "locale"


@pytest.mark.parametrize("lang", ["lv", "cs", "ca", "en"])
def test_each_key_once(lang: str) -> None:
    text = (LOCALE / lang / "LC_MESSAGES" / "robinson.po").read_text(encoding="utf-8")
    keys = Counter(re.findall(r'^msgid "(.+)"$', text, flags=re.M))
    assert not [k for k, n in keys.items() if n > 1]
