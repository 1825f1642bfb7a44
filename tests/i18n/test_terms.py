"""Issue 20: one word per thing and one register per language, held to the term list of
docs/texts.md. Each test names the term or the form it guards; texts verbatim from the seeds
(stories, printed effect lines, the rules paragraph) are the seeds' business and are left out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from robinson.i18n import LANGUAGES, Translator
from robinson.i18n.catalogs import load_catalog

SEED_TEXT = re.compile(r"^(square\.\d+\.(story|effect)|rules\.)")


def own_texts(lang: str) -> dict[str, str]:
    """Every message of ours in `lang` (all plural forms joined), the seeds' texts left out."""
    texts = {}
    for message in load_catalog(lang):
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        if not SEED_TEXT.match(key):
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            texts[key] = " ".join(forms)
    return texts


# The term list of docs/texts.md: the catalog's label for each thing, exactly.
TERMS = {
    "lv": {"web.die": "Kauliņš", "ui.bank": "Banka", "ui.turn": "Gājiens",
           "ui.friday": "Piektdienis",
           "web.bot.random": "Nejaušais", "web.bot.eager": "Steidzīgais",
           "web.bot.heuristic": "Prātīgais", "web.bot.optimal": "Optimālais"},
    "cs": {"web.die": "Kostka", "ui.bank": "Bank", "ui.turn": "Tah", "ui.friday": "Pátek",
           "web.bot.random": "Náhodný", "web.bot.eager": "Dychtivý",
           "web.bot.heuristic": "Rozvážný", "web.bot.optimal": "Optimální"},
    "ca": {"web.die": "El dau", "ui.bank": "Pot", "ui.turn": "Torn", "ui.friday": "Divendres",
           "web.bot.random": "Aleatori", "web.bot.eager": "Impacient",
           "web.bot.heuristic": "Assenyat", "web.bot.optimal": "Òptim"},
    "en": {"web.die": "The die", "ui.bank": "Bank", "ui.turn": "Turn", "ui.friday": "Friday",
           "web.bot.random": "Random", "web.bot.eager": "Eager",
           "web.bot.heuristic": "Heuristic", "web.bot.optimal": "Optimal"},
}  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
def test_labels_are_the_term_list(lang: str) -> None:
    t = Translator(lang)
    assert {key: t.gettext(key) for key in TERMS[lang]} == TERMS[lang]


# Texts that name the pawn, and the pawn's word (never the die's, never the token's).
PAWN_KEYS = ("web.legend.move", "report.heatmap.title", "report.exact.note", "report.fig.exact.x")
PAWN = {"lv": "figūr", "cs": "figur", "ca": "pe[óo]", "en": "pawn"}
NOT_PAWN = {"lv": "kauliņ", "cs": "kostk", "ca": "fitx", "en": "token"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pawn_is_never_the_die_nor_the_token(lang: str) -> None:
    texts = own_texts(lang)
    for key in PAWN_KEYS:
        assert re.search(PAWN[lang], texts[key], re.I), (key, texts[key])
        assert not re.search(NOT_PAWN[lang], texts[key], re.I), (key, texts[key])


def test_every_text_about_pawns_names_them_by_the_pawn_word() -> None:
    """Issue 20 (review A1, L2): the report's later sections named the pawn "fitxa" in Catalan
    again ("la fitxa viva més avançada", "Una fitxa sola: morta al 42"), which is the token.
    Every message whose English says "pawn" says the language's pawn word, and the token's or
    the die's word only where the English names a token or the die as well."""
    english = own_texts("en")
    about_pawns = {key for key, text in english.items() if re.search(r"\bpawns?\b", text, re.I)}
    assert len(about_pawns) >= len(PAWN_KEYS)
    for lang in ("lv", "cs", "ca"):
        texts = own_texts(lang)
        for key in about_pawns:
            assert re.search(PAWN[lang], texts[key], re.I), (lang, key, texts[key])
            also_money = re.search(r"\b(tokens?|die|dice)\b", english[key], re.I)
            if not also_money:
                assert not re.search(NOT_PAWN[lang], texts[key], re.I), (lang, key, texts[key])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_our_texts_use_the_seeds_spaced_en_dash_never_an_em_dash(lang: str) -> None:
    """Issue 20 (review S7, L22): the seeds and the catalogs set a spaced en dash " – "; the
    report's questions had brought back " — " in Latvian and Czech."""
    assert {key: text for key, text in own_texts(lang).items() if "\u2014" in text} == {}


# Counters and buttons of a player's turn: Czech "tah" (a "kolo" is a round of everyone's turn;
# "vynechat kolo", to sit one out, is the idiom of the printed Czech rules and stays).
TURN_KEYS = ("web.turn_of", "web.back_turn", "web.forward_turn", "web.odds.turn", "ui.turn",
             "report.fig.history.x")  # fmt: skip


def test_czech_turn_headings_say_tah_not_kolo() -> None:
    texts = own_texts("cs")
    for key in TURN_KEYS:
        assert re.search(r"\btah", texts[key], re.I) and "kolo" not in texts[key].lower(), key


# Words that name the same thing twice over, or name it wrongly, in our own texts.
FORBIDDEN = {
    "lv": {
        "alkatīg": "the eager policy is the bot Steidzīgais, not money-greedy",
        "pieslēdzies": "a masculine participle for anyone at the table",
        "spēlē atkal pats": "masculine",
        r"\bkas(e|i|es)\b": "the bank is 'banka' (the seed's 'kase' on 45 stays in its line)",
        "Saimnieks nosūtīja|saimniekam": "the host is 'galda veidotājs' (a 'saimnieks' is a "
        "Friday's master)",
        "standarta izdevum": "the edition's name is 'standarta noteikumi' (edition.standard)",
    },
    "cs": {
        "hladov": "the eager policy is the bot Dychtivý, not 'greedy'",
        r"\(a\)": "slash-style gender forms",
        "standardní vydání": "the edition's name is 'standardní pravidla' (edition.standard)",
    },
    "ca": {
        "àvid": "the eager policy is the bot Impacient",
        "seient": "a place at the table is 'lloc' (a 'seient' is a chair)",
        r"\bbanca\b": "the bank is 'el pot'",
        r"\bconnectat": "masculine",
        "Repeteix la partida": "the replay is watched again, not played again",
        "(?i)edició estàndard": "the edition is 'les regles estàndard', as in the report's "
        "captions",
    },
}


@pytest.mark.parametrize("lang", ["lv", "cs", "ca"])
def test_one_word_per_thing(lang: str) -> None:
    texts = own_texts(lang)
    for key, text in texts.items():
        if key == "effect.45.third":  # follows the seed's own line 45 ("Tu laimē visu kasi")
            continue
        for pattern, why in FORBIDDEN[lang].items():
            assert not re.search(pattern, text), f"{lang} {key}: {text!r} ({why})"


def test_the_report_calls_the_eager_policy_by_its_bot() -> None:
    for lang, stem in {"lv": "steidzīg", "cs": "dychtiv", "ca": "impacient"}.items():
        assert stem in Translator(lang).gettext("report.policy.eager").lower()
        assert stem in Translator(lang).gettext("web.bot.eager").lower()


# One register: the interface says tu / ty / tu. Formal or plural "you" forms are wrong, except
# where "you" really is two people: the rescue (you and your Friday) and the swap on 36 (the
# seed's own words for the two who trade places).
PLURAL_YOU_KEYS = {"lead.rescue", "effect.36.swap"}
LV_PREFIXES = {"", "iz", "pār", "ai", "at", "no", "ie", "sa", "uz", "ap", "pa", "pie", "ne"}
CA_NOT_PLURAL = {"seu", "meu", "teu", "veu", "treu", "adeu", "deu", "peu", "creu", "beu",
                 "diu", "viu", "escriu", "dispositiu", "estiu", "riu",
                 "correu"}  # fmt: skip  # "correu": the e-mail, a noun


def formal_forms(lang: str, text: str) -> list[str]:
    words = re.findall(r"\w+", text.lower())
    if lang == "lv":
        return [w for w in words if w in {"jūs", "jums", "jūsu", "varat", "esat"}
                or (w.endswith("iet") and w[:-3] not in LV_PREFIXES)]  # fmt: skip
    if lang == "cs":
        formal = {"vy", "vás", "vám", "váš", "vaše", "vaši", "vašeho", "vaší", "jste", "nejste"}
        plural = re.compile(r"(ejte|ujte|ijte|ěte|ete|áte|íte|uste)$")  # zkuste, počkejte…
        return [w for w in words if w in formal or plural.search(w)]
    text = text.lower().replace("si us plau", "")
    words = re.findall(r"\w+", text)
    return [w for w in words if w in {"vosaltres", "vostre", "vostra", "vostres", "us"}
            or (re.search(r"(eu|iu)$", w) and w not in CA_NOT_PLURAL)]  # fmt: skip


INFORMAL_SAMPLES = {
    "lv": ("ui.your_turn", "Tavs"),
    "cs": ("ui.your_turn", "Jsi"),
    "ca": ("ui.your_turn", "Et toca"),
}


@pytest.mark.parametrize("lang", ["lv", "cs", "ca"])
def test_one_register_tu(lang: str) -> None:
    texts = own_texts(lang)
    key, word = INFORMAL_SAMPLES[lang]
    assert word in texts[key]  # the catalog does speak to "tu"...
    found = {k: formal_forms(lang, v) for k, v in texts.items() if k not in PLURAL_YOU_KEYS}
    assert {k: v for k, v in found.items() if v} == {}  # ...and never to "jūs" / "vy" / "vosaltres"


@pytest.mark.parametrize(
    ("lang", "formal"),
    [("lv", "Tagad nav jūsu gājiens; mēģiniet vēlreiz."), ("cs", "Nejste na tahu, zkuste to."),
     ("ca", "No és el vostre torn; torneu-ho a provar.")],
)  # fmt: skip
def test_the_register_check_catches_the_old_web_errors(lang: str, formal: str) -> None:
    assert len(formal_forms(lang, formal)) >= 2


STATIC = Path(__file__).resolve().parents[2] / "src" / "robinson" / "web" / "static"


def test_no_seat_is_named_by_a_pronoun() -> None:
    """Issue 20: "Play now" named the viewer "Tu / Ty / Tu / You", and every third-person line
    about him broke ("Ty hází", "You rolls"). The page names the seat; "(tu)" only marks it."""
    scripts = " ".join(p.read_text(encoding="utf-8") for p in STATIC.glob("*.js"))
    assert "web.you_name" not in scripts
    for lang in LANGUAGES:
        assert "web.you_name" not in Translator(lang).ui_strings()
        pronoun = Translator(lang).gettext("web.you").strip("()")
        assert f'name: "{pronoun}"' not in scripts and f"name: '{pronoun}'" not in scripts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_editions_table_note_names_its_columns_as_they_are_headed(lang: str) -> None:
    """Issue 20, found by reading the report: the note under the editions' table explained
    "P(nav uzvarētāja)" (lv) and "P(cap guanyador)" (ca) for a column headed "P(bez
    uzvarētāja)" / "P(sense guanyador)": one thing, two words."""
    t = Translator(lang)
    note = t.gettext("report.editions.terms")
    heads = {t.gettext("report.th.p_no_winner"), t.gettext("report.th.p_death")}
    assert set(re.findall(r"P\([^)]*\)", note)) == heads


def test_czech_winners_turns_are_the_rounds_the_game_lasted_in_a_sentence() -> None:
    """Review C6 again, in the editions' note: "tedy kola, jak dlouho hra trvala" is the
    ungrammatical clause the review found in report.lengths.note."""
    for key in ("report.lengths.note", "report.editions.terms"):
        text = Translator("cs").gettext(key)
        assert "jak dlouho hra trvala" not in text and "počet kol, která hra trvala" in text, key


def test_czech_decimal_counts_take_the_genitive_singular() -> None:
    """Review C5 again, in the solver's findings: a decimal ("2,3") takes the genitive singular
    ("o 2,3 tahu"), and "jako 4 nezávislých pasiánsů" had the case of five or more."""
    t = Translator("cs")
    assert "o {turns} tahu více" in t.gettext("report.found.lone")
    assert "jako {players} nezávislé pasiánsy" in t.gettext("report.found.swap")


def test_catalan_percentages_take_the_article_and_numbers_do_not_touch() -> None:
    """Review A3 again, in the solver's findings ("ho deixa en 28,20 %"), and "arriba al 45
    0,012 punts més sovint", two numbers side by side (as review A18 found elsewhere)."""
    t = Translator("ca")
    assert "ho deixa en el {exact}" in t.gettext("report.found.swap")
    assert "en el {bound}" in t.gettext("report.purses.note")
    for lang in LANGUAGES:
        lone = Translator(lang).gettext("report.found.lone")
        assert not re.search(r"\d \{\w+\}|\} \{", lone), (lang, lone)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_our_texts_quote_the_languages_way(lang: str) -> None:
    """Found by reading the English report: "Times 'arises per game' count every seat." quoted
    with straight marks; every message of ours quotes with `typo.quoted`'s marks."""
    straight = {
        key: re.findall(r"(?<!\w)['\"]([^'\"{}]+)['\"](?!\w)", text)
        for key, text in own_texts(lang).items()
        if "{{" not in text  # a record's JSON ({"roll": 1..6}) keeps its own marks
    }
    assert {key: found for key, found in straight.items() if found} == {}
