"""`robinson play` setup in the player's language: every question and error in it, and every
answer a question offers is accepted (Latvian "robots" included)."""

from __future__ import annotations

import argparse
import re

import pytest

from robinson.cli import main
from robinson.cli.play import setup
from robinson.engine import EDITIONS, RobinsonError
from robinson.i18n import LANGUAGES, Translator


def _namespace(**overrides: object) -> argparse.Namespace:
    base: dict[str, object] = dict(
        players=None, seats=None, edition=None, start_tokens=30, stake=10, share="half",
        lang=None, seed=3, save=None, pace=0.0,
    )  # fmt: skip
    return argparse.Namespace(**{**base, **overrides})


def _run(lang: str, answers: list[str]) -> tuple[object, list[str]]:
    questions: list[str] = []
    feed = iter(answers)

    def ask(question: str) -> str:
        questions.append(question)
        return next(feed)

    return setup(_namespace(lang=lang), True, ask), questions


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_players_question_offers_words_it_accepts(lang: str) -> None:
    t = Translator(lang)
    human, bot = t.gettext("cli.word.human"), t.gettext("cli.word.bot")
    game, questions = _run(lang, ["Zoe", "", f"Bruno:{human}:7,Cila:{bot}", ""])
    name_q, age_q, players_q, _ = questions
    assert (name_q, age_q) == (t.gettext("cli.ask_name"), t.gettext("cli.ask_age"))
    # The words the question names are the words accepted.
    assert re.search(rf"\b{human}\b", players_q) and re.search(rf"\b{bot}\b", players_q)
    assert [(s.name, s.kind, s.age) for s in game.seats] == [  # type: ignore[attr-defined]
        ("Zoe", "human", None),
        ("Bruno", "human", 7),
        ("Cila", "heuristic", None),
    ]
    # The default offered in brackets is accepted too, and is not the human's name.
    default = re.search(r"\[([^\]]+)\]: $", players_q)
    assert default is not None and "Zoe" not in default.group(1)
    game, _ = _run(lang, ["Bruno", "9", "", ""])
    assert game.names[0] == "Bruno" and len(set(game.names)) == 3  # type: ignore[attr-defined]


def test_latvian_robots_is_a_bot() -> None:
    game, questions = _run("lv", ["Līga", "10", "Oskars:robots,Marta:cilvēks", ""])
    assert "cilvēks, robots" in questions[2]
    assert [s.kind for s in game.seats] == ["human", "heuristic", "human"]  # type: ignore[attr-defined]


def test_answers_ignore_case_and_accents() -> None:
    game, _ = _run("cs", ["Jana", "", "Petr:CLOVEK,Eva:Robot,Ota:random", ""])
    assert [s.kind for s in game.seats] == ["human", "human", "heuristic", "random"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_edition_question_lists_names_and_takes_them(lang: str) -> None:
    t = Translator(lang)
    names = [t.edition_name(e) for e in EDITIONS]
    for answer, expected in [("5", "classic"), (names[0], "standard"), ("cs", "cs")]:
        game, questions = _run(lang, ["Zoe", "", "", answer])
        assert game.record.ruleset.edition == expected  # type: ignore[attr-defined]
        question = questions[-1]
        assert all(name in question for name in names)
        assert "classic" not in question  # codes are not what a person reads


@pytest.mark.parametrize(
    ("lang", "answer", "expected"),
    [
        ("lv", "Bruno:burvis", "nezināms spēlētāja veids “burvis”"),
        ("cs", "Bruno:kouzelník", "neznámý druh hráče „kouzelník“"),
        ("ca", "Bruno:mag", "tipus de jugador desconegut «mag»"),
        ("en", "Bruno:wizard", "unknown player kind 'wizard'"),
        ("lv", "Bruno", "VĀRDS:VEIDS[:VECUMS]"),
        ("cs", "Bruno:robot:starý", "věk je celý počet let"),
        ("ca", "Zoe:robot", "els noms dels jugadors han de ser diferents"),
    ],
)
def test_bad_answers_are_explained_in_the_language(
    lang: str, answer: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _, questions = _run(lang, ["Zoe", "", answer, "", ""])
    assert questions[2] == questions[3]  # asked again
    out = capsys.readouterr().out
    assert expected in out and out.startswith(Translator(lang).format("cli.bad_answer", error=""))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "Anna:burvis,Bruno:robots"], "nezināms spēlētāja veids “burvis”"),
        (["--players", "Anna:cilvēks"], "no 2 līdz 8 spēlētājiem"),
        (["--stake", "40"], "iemaksai bankā jābūt no 0 līdz sākuma žetonu skaitam (30)"),
    ],
)
def test_flag_errors_in_the_language(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--lang", "lv", *args]) == 2
    assert message in capsys.readouterr().err


def test_stake_above_the_start_tokens_is_refused() -> None:
    with pytest.raises(RobinsonError, match="the tokens at the start"):
        setup(_namespace(lang="en", stake=50, players="A:bot,B:bot"), False, lambda q: "")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bots_are_offered_and_accepted_by_their_names_in_the_language(lang: str) -> None:
    """Issue 20: the players question lists the bots as the web names them, not by their codes,
    and those names (any case, any accents) are answers; the codes still work too."""
    t = Translator(lang)
    names = {bot: t.gettext(f"web.bot.{bot}") for bot in ("random", "eager", "heuristic")}
    answer = ",".join(f"P{i}:{name.upper()}" for i, name in enumerate(names.values()))
    game, questions = _run(lang, ["Zoe", "", answer + ",Q:optimal", ""])
    assert [s.kind for s in game.seats] == ["human", *names, "optimal"]  # type: ignore[attr-defined]
    offered = questions[2]
    for name in names.values():
        assert name.lower() in offered
    if lang != "en":
        assert not re.search(r"\b(random|eager|heuristic)\b", offered)


@pytest.mark.parametrize(
    ("lang", "known"),
    [
        ("lv", "cilvēks, robots, nejaušais, steidzīgais, prātīgais, optimālais"),
        ("cs", "člověk, robot, náhodný, dychtivý, rozvážný, optimální"),
        ("ca", "persona, robot, aleatori, impacient, assenyat, òptim"),
    ],
)
def test_an_unknown_kind_lists_the_words_of_the_language(
    lang: str, known: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(lang, ["Zoe", "", "Bruno:xyz", "", ""])
    assert known in capsys.readouterr().out
