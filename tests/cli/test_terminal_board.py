"""The terminal game through a real pseudo-terminal: `robinson play` runs as its own process on a
pty (pexpect), a scripted human answers, and every board it draws puts every pawn on the square
the engine says (the saved record replayed), in the seat's colour, within 80 columns."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from robinson.engine import GameRecord, State
from robinson.engine.events import TurnBegan

pexpect = pytest.importorskip("pexpect", reason="pexpect drives the pseudo-terminal")

ANSI = re.compile(r"\x1b\[[0-9;]*m")
COLOUR = re.compile(r"\x1b\[([0-9;]*)m([A-Z])\x1b\[0m")
NUMBERS = re.compile(r"^\s+\d+(?:\s+\d+){14}$")
PAWNS = re.compile(r"^[A-Z ]*$")
PROMPT = r"\(h = help, q = quit\): "
PLAYERS = "Anna:human,Bruno:random,Cila:heuristic"


def play_on_a_pty(tmp_path: Path, seed: int) -> tuple[str, GameRecord]:
    """Play a whole game on a pty: Enter at each roll, "h" once, option 1 at each decision."""
    save = tmp_path / "game.json"
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", PYTHONIOENCODING="utf-8")
    env.pop("NO_COLOR", None)
    env.pop("COLUMNS", None)
    args = ["-c", "import sys; from robinson.cli import main; sys.exit(main())", "play"]
    args += ["--players", PLAYERS, "--seed", str(seed), "--lang", "en", "--edition", "standard"]
    args += ["--pace", "0", "--save", str(save)]
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", dimensions=(40, 80), timeout=60
    )
    child.delaybeforesend = None  # answers only after the prompt: no 50 ms wait at each of them
    transcript, helped = [], False
    while True:
        index = child.expect([PROMPT, pexpect.EOF])
        transcript.append(child.before)
        if index == 1:
            break
        if "Choose" in child.before.splitlines()[-1]:
            child.sendline("1")
        elif not helped:
            child.sendline("h")
            helped = True
        else:
            child.sendline("")
    child.close()
    assert child.exitstatus == 0, "".join(transcript)[-2000:]
    return "".join(transcript), GameRecord.loads(save.read_text(encoding="utf-8"))


def boards_the_engine_drew(record: GameRecord) -> list[State]:
    """The states a board is drawn for: the start, then each turn's end and the game's end."""
    states = [record.initial_state()]
    for _, after, events in record.steps():
        if any(isinstance(e, TurnBegan) for e in events) or after.over:
            states.append(after)
    return states


def parse_boards(text: str) -> list[dict[str, int]]:
    """Each board in the output as {marker: square}: the start line, then rows of numbers with
    the pawns' letters under them (a letter belongs to the number it starts under)."""
    lines = ANSI.sub("", text).replace("\r", "").split("\n")
    boards = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("  Start:"):
            i += 1
            continue
        where = {m: 0 for m in lines[i].split(":", 1)[1].split()}
        i += 1
        starts: list[tuple[int, int]] = []
        # number lines, and pawn lines (letters and spaces only, perhaps empty)
        while i < len(lines) and (NUMBERS.match(lines[i]) or PAWNS.match(lines[i])):
            line = lines[i]
            if NUMBERS.match(line):
                starts = [(m.start(), int(m.group())) for m in re.finditer(r"\d+", line)]
            else:
                for col, letter in ((c, ch) for c, ch in enumerate(line) if ch.isalpha()):
                    square = max((start, n) for start, n in starts if start <= col)[1]
                    assert letter not in where, f"{letter} drawn twice: {line!r}"
                    where[letter] = square
            i += 1
        boards.append(where)
    return boards


@pytest.mark.parametrize("seed", [4, 12])
def test_every_board_puts_every_pawn_where_the_engine_says(tmp_path: Path, seed: int) -> None:
    text, record = play_on_a_pty(tmp_path, seed)
    assert record.replay().over
    expected = boards_the_engine_drew(record)
    drawn = parse_boards(text)
    assert len(drawn) == len(expected)
    letters = {"A": 0, "B": 1, "C": 2}  # the initials of Anna, Bruno, Cila
    for board, state in zip(drawn, expected, strict=True):
        assert board == {m: state.players[s].position for m, s in letters.items()}
    # Each seat's pawn has its own colour, the same on every board.
    colours: dict[str, set[str]] = {}
    for code, letter in COLOUR.findall(text):
        if "7" not in code.split(";") and "2" not in code.split(";"):  # not to-move, not dead
            colours.setdefault(letter, set()).add(code)
    assert set(colours) == set(letters)
    assert all(len(c) == 1 for c in colours.values())
    assert len({next(iter(c)) for c in colours.values()}) == 3
    # Everything fits an 80-column terminal.
    plain = ANSI.sub("", text).replace("\r", "").split("\n")
    assert max(len(line) for line in plain) <= 80
    # The help key showed the rules of the edition in play; the first turn had its heading.
    assert "The rules in play:" in text and "Edition: Standard." in text
    first = ANSI.sub("", text).split("Anna's turn.")[0]
    assert "Start:" in first and "press Enter" not in first


SETUP = {
    # language answer, name, age, others (with the language's own words), edition by name
    "lv": ("lv", "Līga", "10", "Oskars:robots:12,Marta:cilvēks:11", "Klasiskie noteikumi"),
    "cs": ("čeština", "Jana", "", "Petr:robot,Eva:člověk", "Standardní pravidla"),
    "ca": ("3", "Núria", "9", "Pau:robot:10,Joan:persona", "Text txec"),
    "en": ("en", "Zoe", "", "Max:bot,Ida:human", "5"),
}
EDITION_CHOSEN = {"lv": "classic", "cs": "standard", "ca": "cs", "en": "classic"}


@pytest.mark.parametrize("lang", sorted(SETUP))
def test_setup_questions_on_a_pty_take_the_languages_answers(lang: str) -> None:
    """The setup questions of a real `robinson play` on a terminal, answered in each language:
    the game starts with the players typed, in the language, on the edition named."""
    from robinson.i18n import Translator

    t = Translator(lang)
    language, name, age, others, edition = SETUP[lang]
    env = dict(os.environ, TERM="dumb", LANG="C.UTF-8", PYTHONIOENCODING="utf-8")
    args = ["-c", "import sys; from robinson.cli import main; sys.exit(main())", "play"]
    child = pexpect.spawn(
        sys.executable, [*args, "--seed", "1", "--pace", "0"], env=env, encoding="utf-8",
        dimensions=(40, 80), timeout=60,
    )  # fmt: skip
    child.delaybeforesend = None  # each answer after its question: no 50 ms wait before it
    for answer in (language, name, age, others, edition):
        child.expect(r"\]: |: $")
        child.sendline(answer)
    child.expect(re.escape(t.format("cli.press_enter", name=name)))
    shown = ANSI.sub("", child.before).replace("\r", "")
    child.sendline("q")
    child.expect(re.escape(t.gettext("cli.save_ask")))
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1  # stopped by q
    assert t.gettext("cli.bad_answer").split(":")[0] not in shown  # every answer was accepted
    for other in others.split(","):
        assert f" {other.split(':')[0]} " in shown
    # the human is the youngest with an age, or the first seat: the first turn is theirs
    assert t.format("event.turn_began", name=name) in shown
    assert t.gettext(f"summary.edition.{EDITION_CHOSEN[lang]}") in shown
