"""`robinson report --lang`: the page in each language — `<html lang>`, a viewport meta for phones,
headings, table headers and numbers written the language's way, all from the catalogs."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest
from tests.shared import REPORT_GAMES, report_page, report_words

from robinson.analysis.report import build_report
from robinson.cli import build_parser
from robinson.engine import RobinsonError
from robinson.i18n import LANGUAGES, Translator

SECTIONS = (
    "found",
    "lengths",
    "editions",
    "seats",
    "heatmap",
    "purses",
    "questions",
    "exact",
    "sim",
)


class Pages(dict[str, str]):
    """The report's page per language, each rendered when a test first reads it: once per run
    over all the workers (tests/shared.py), so two workers render two languages side by side.
    These tests read the words: the plots are built in the language but not drawn to PNG
    (`report_words`), except in English, whose drawn page the figure tests share."""

    def __missing__(self, lang: str) -> str:
        self[lang] = page = report_page(lang) if lang == "en" else report_words(lang)
        return page


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return Pages()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_page_is_in_the_language_and_reads_on_a_phone(lang: str, pages: dict[str, str]) -> None:
    page, t = pages[lang], Translator(lang)
    assert page.startswith(f"<!DOCTYPE html><html lang={lang}><head>")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "overflow-x: auto" in page and "<div class=scroll><table>" in page  # wide tables scroll
    title = html.escape(t.gettext("report.title"), quote=False)
    assert f"<title>{title}</title>" in page and f"<h1>{title}</h1>" in page
    headings = re.findall(r"<h2>(.*?)</h2>", page)
    assert headings == [
        html.escape(t.gettext(f"report.{key}.title"), quote=False) for key in SECTIONS
    ]
    headers = set(re.findall(r"<th>(.*?)</th>", page))
    for key in ("edition", "p_death", "decision_seat0", "decision_two", "other_option"):
        assert html.escape(t.gettext(f"report.th.{key}"), quote=False) in headers
    # The decisions are labelled with the language's option labels.
    assert html.escape(f"{t.option('move')} / {t.option('restart')}", quote=False) in page


@pytest.mark.parametrize("lang", ["lv", "cs", "ca"])
def test_no_english_left_in_the_page(lang: str, pages: dict[str, str]) -> None:
    text = re.sub(r"<[^>]+>", " ", re.sub(r'src="data:[^"]+"', "", pages[lang]))
    en = Translator("en")
    for key in ("report.lengths.title", "report.seats.note", "report.th.turns_mean"):
        assert en.gettext(key).split("(")[0].strip() not in text, key
    assert " games per setting" not in text and "instead of" not in text


def test_numbers_are_written_the_languages_way(pages: dict[str, str]) -> None:
    percent = r"\d+{sep}\d\d{space}%"
    assert re.search(percent.format(sep=r"\.", space=""), pages["en"])
    assert re.search(percent.format(sep=",", space="\xa0"), pages["lv"])
    assert re.search(percent.format(sep=",", space="\xa0"), pages["cs"])
    assert re.search(percent.format(sep=",", space="\xa0"), pages["ca"])
    assert f"{REPORT_GAMES} games per setting" in pages["en"]


@pytest.mark.parametrize("lang", ["lv", "cs", "ca"])
def test_one_percent_style_and_real_minus_signs(lang: str, pages: dict[str, str]) -> None:
    """Issue 20: "95 %" in the words as in the numbers (a no-break space; Czech keeps "95%
    interval", where the figure is an adjective), and −0,06 with U+2212, never a hyphen."""
    text = _words_of(pages[lang])
    if lang != "cs":
        assert not re.search(r"\d%|\d %", text)
    assert not re.search(r"(?<![\w-])-\d", text)  # no hyphen-minus before a number
    assert "\u2212" in text


@pytest.mark.parametrize("lang", ["lv", "cs", "ca"])
def test_editions_are_named_not_coded(lang: str, pages: dict[str, str]) -> None:
    """Issue 20: "izdevums standard" read as a word; the page names the editions."""
    text = _words_of(pages[lang])
    assert not re.search(r"\b(standard|classic)\b", text)
    t = Translator(lang)
    assert t.edition_name("classic") in text and t.edition_name("ca") in text


def _words_of(page: str) -> str:
    """The text a reader sees: no style sheet, no images, no tags, no commands."""
    page = re.sub(r"<style>.*?</style>|<code>.*?</code>", " ", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", re.sub(r'src="data:[^"]+"', "", page))


def test_report_command_takes_lang() -> None:
    args = build_parser().parse_args(["report", "--out", "x", "--lang", "cs"])
    assert args.lang == "cs"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["report", "--out", "x", "--lang", "de"])


def test_unknown_language_is_refused_before_simulating(tmp_path: Path) -> None:
    with pytest.raises(RobinsonError, match="lv, cs, ca, en"):
        build_report(tmp_path / "out", games=10**9, lang="de")
    assert not (tmp_path / "out").exists()


PHONE = {"width": 390, "height": 844}


@pytest.mark.browser
def test_report_fits_a_phone_screen(tmp_path: Path) -> None:
    """Opened in a real Chromium (Debian's, via Playwright) at a phone's width, the page does not
    scroll sideways, its plots fit the screen, and wide tables scroll within their own box."""
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Chromium not installed: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    page_file = tmp_path / "index.html"
    page_file.write_text(report_page("cs"), encoding="utf-8")  # with its plots drawn
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport=PHONE)
            page.goto(page_file.as_uri())
            assert page.evaluate("document.documentElement.lang") == "cs"
            # The viewport meta makes the layout width the phone's, not a desktop's 980 px.
            assert page.evaluate("window.innerWidth") == PHONE["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            rights = page.evaluate("[...document.images].map(i => i.getBoundingClientRect().right)")
            assert len(rights) == 8 and max(rights) <= PHONE["width"]
            boxes = page.evaluate(
                "[...document.querySelectorAll('.scroll')].map(b => "
                "[b.scrollWidth > b.clientWidth, getComputedStyle(b).overflowX])"
            )
            assert boxes and all(overflow == "auto" for _, overflow in boxes)
            assert any(wide for wide, _ in boxes)  # the editions table is wider than a phone
        finally:
            browser.close()
