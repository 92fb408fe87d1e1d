"""The one rule for every text that comes in (``scoring/text.py``), checked on its own: what it
refuses and in which words, what it lets through (an emoji's own joiners), how a refusal quotes
the text, and what a spreadsheet would read as a formula."""

import pytest

from scorekeeper.scoring.errors import Refusal
from scorekeeper.scoring.text import (
    NAME_MAX_LENGTH,
    begins_like_formula,
    check_text,
    name_key,
    names_fault,
    shown,
    surrogate_fault,
    text_fault,
)

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # man ZWJ woman ZWJ girl: one emoji
SCOTLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"  # black flag and tags


@pytest.mark.parametrize(
    "text, words",
    [
        ("Cy\0Lee", "a name cannot hold a control character (a NUL)"),
        ("Cy\tLee", "a name cannot hold a control character (a tab)"),
        ("Cy\nLee", "a name cannot hold a control character (a line break)"),
        ("Cy\rLee", "a name cannot hold a control character (a line break)"),
        ("Cy\x85Lee", "a name cannot hold a control character (a line break)"),
        ("Cy\u2028Lee", "a name cannot hold a control character (a line break)"),
        ("Cy\u2029Lee", "a name cannot hold a control character (a line break)"),
        ("Cy\x07Lee", "a name cannot hold a control character (U+0007)"),
        ("Cy\x0bLee", "a name cannot hold a control character (U+000B)"),
        ("D\udc80", "a name cannot hold a lone surrogate (U+DC80): it is not text any page can show"),
        ("Cy\u200bLee", "a name cannot hold an invisible character (U+200B)"),
        ("\u202eCy Lee", "a name cannot hold an invisible character (U+202E)"),
        ("\ufeffCy", "a name cannot hold an invisible character (U+FEFF)"),
    ],
)
def test_the_rule_names_what_it_refuses(text, words):
    assert text_fault(text) == words


@pytest.mark.parametrize("blank", ["\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"])
def test_the_blanks_unicode_calls_letters_or_symbols_are_invisible(blank):
    assert text_fault(f"Cy{blank}Lee") == f"a name cannot hold an invisible character (U+{ord(blank):04X})"


@pytest.mark.parametrize(
    "char",
    [
        "\u034f",  # the combining grapheme joiner
        "\ufe00",  # the variation selectors, first and last
        "\ufe0f",
        "\u180b",  # the Mongolian free variation selectors, first and last
        "\u180f",
        "\U000e0000",  # the default-ignorable block of tags and selectors, first and last
        "\U000e0100",
        "\U000e0fff",
    ],
)
def test_default_ignorable_characters_are_invisible(char):
    assert text_fault(f"Cy{char}Lee") == f"a name cannot hold an invisible character (U+{ord(char):04X})"


@pytest.mark.parametrize(
    "char",
    [
        "\u034e",  # a combining mark just before the grapheme joiner
        "\ufe10",  # a vertical comma just after the variation selectors
        "\u180a",  # Mongolian punctuation just before its selectors
        "\u1810",  # a Mongolian digit just after them
        "\U000e1000",  # just after the default-ignorable block
    ],
)
def test_the_characters_beside_the_invisible_ranges_come_in(char):
    assert text_fault(f"Cy{char}Lee") is None


@pytest.mark.parametrize(
    "text",
    [
        "Cy Lee",
        "Ann \U0001f600",
        f"Ann {FAMILY}",
        f"{FAMILY} team",
        "\U0001f44d\ufe0f",  # thumbs up and the emoji variation selector
        SCOTLAND,
        "\U0001f3f4\U000e0020\U000e007f",  # the first and the last tag character
        "\U0001f3fb\ufe0f",  # a skin tone (a modifier symbol) and the variation selector
        "\U0001f44b\U0001f3fb\u200d\U0001f469",
    ],
)
def test_an_emojis_own_joiners_come_in_after_an_emoji(text):
    assert text_fault(text) is None


@pytest.mark.parametrize(
    "text, code",
    [
        ("A\ufe0f", "FE0F"),  # a variation selector after a letter
        ("\ufe0fA", "FE0F"),  # ... or at the start
        ("\U0001f468\u200d", "200D"),  # a joiner with nothing after it
        ("\U0001f468\u200dA", "200D"),  # a joiner with a letter after it
        ("A\u200d\U0001f469", "200D"),  # a joiner after a letter
        ("\U0001f44d\u200b", "200B"),  # a zero-width space is no emoji's joiner
        ("A\U000e0067", "E0067"),  # tags after a letter
        ("\U0001f3f4\U000e0080", "E0080"),  # past the tag characters
    ],
)
def test_joiners_anywhere_else_are_invisible_characters(text, code):
    assert text_fault(text) == f"a name cannot hold an invisible character (U+{code})"


@pytest.mark.parametrize("text", ["", " ", "   ", "\u0301", "\u3000"])
def test_text_needs_something_that_can_be_seen(text):
    assert text_fault(text, "the club") == "the club needs a letter, digit or sign that can be seen"


def test_a_note_keeps_its_line_breaks_and_tabs_and_no_other_control():
    assert text_fault("First line\n\tsecond\r\nthird", "a note", lines=True) is None
    assert text_fault("First\x0bline", "a note", lines=True) == "a note cannot hold a control character (U+000B)"
    assert text_fault("First\u2028line", "a note", lines=True) == (
        "a note cannot hold a control character (a line break)"
    )
    assert text_fault("First\nline", "a note") == "a note cannot hold a control character (a line break)"


def test_at_most_so_many_characters_when_a_limit_is_given():
    assert text_fault("abc", "the club", most=3) is None
    assert text_fault("abcd", "the club", most=3) == "the club is longer than 3 characters (4)"
    assert text_fault("a" * 500, "a note") is None


def test_check_text_refuses_with_a_sentence_beside_its_field():
    with pytest.raises(Refusal) as refused:
        check_text("Cy\tLee", "players")
    assert str(refused.value) == "A name cannot hold a control character (a tab)."
    assert refused.value.field == "players"
    with pytest.raises(Refusal, match="^A note cannot hold"):
        check_text("a\0b", "notes", "a note", lines=True)
    check_text("Cy Lee", "players")
    check_text("one\ntwo", "notes", "a note", lines=True)
    with pytest.raises(Refusal, match=r"^The club is longer than 3 characters \(4\)\.$"):
        check_text("abcd", "club", "the club", most=3)


def test_names_fault_names_the_player_and_holds_names_to_thirty_characters():
    assert NAME_MAX_LENGTH == 30
    assert names_fault(["Ann", "b" * 30]) is None
    long = "b" * 31
    assert names_fault(["Ann", long]) == (f"the player “{'b' * 29}…”: a name is longer than 30 characters (31)")
    assert names_fault(["Ann", "Cy\0Lee"]) == "the player “Cy\\x00Lee”: a name cannot hold a control character (a NUL)"
    assert names_fault(["Ann", "b" * 31], most=None) is None
    assert names_fault([]) is None


def test_two_names_of_one_key_are_refused_naming_both():
    assert names_fault(["Cy Lee", "Bob", "cy  LEE"]) == (
        "the players “Cy Lee” and “cy  LEE” have one name: give each a different name"
    )
    assert names_fault(["Cy Lee", "CyLee"]) is None


def test_name_key_ignores_case_and_the_spaces_between_words():
    assert name_key("  Cy   LEE ") == "cy lee"
    assert name_key("Straße") == "strasse"


@pytest.mark.parametrize(
    "text, quoted",
    [
        ("Cy Lee", "“Cy Lee”"),
        ("", "“”"),
        ("Cy\0Lee", "“Cy\\x00Lee”"),
        ("\x9f", "“\\x9f”"),
        ("\x85", "“\\x85”"),
        ("a\u2028b", "“a\\u2028b”"),
        ("a\u2029b", "“a\\u2029b”"),
        ("\u202eCy", "“\\u202eCy”"),
        ("D\udc80", "“D\\udc80”"),
        ("\u3164", "“\\u3164”"),
        ("x\U000e0001", "“x\\U000e0001”"),
        ("Ann \U0001f600", "“Ann \U0001f600”"),
        ("é ß", "“é ß”"),
    ],
)
def test_a_refusal_quotes_what_it_cannot_show_by_code_point(text, quoted):
    assert shown(text) == quoted


def test_a_refusal_quotes_at_most_so_many_characters():
    assert shown("a" * 30) == "“" + "a" * 30 + "”"
    assert shown("a" * 31) == "“" + "a" * 29 + "…”"
    assert shown("abcdef", most=4) == "“abc…”"
    assert shown("abcd", most=4) == "“abcd”"


@pytest.mark.parametrize(
    "value",
    [
        "A\udc80",
        "\ud800",
        "\udfff",
        ["Ann", "\udfff"],
        {"players": ["Ann", "B\ud800"]},
        {"\udc80": 1},
        [{"hands": [{"notes": ["ok", "\udc80"]}]}],
    ],
)
def test_a_lone_surrogate_anywhere_in_decoded_json_is_found(value):
    assert surrogate_fault(value) is not None and "holds a lone surrogate: it is not valid Unicode" in (
        surrogate_fault(value) or ""
    )


def test_surrogate_fault_quotes_the_text_that_holds_one():
    assert surrogate_fault({"name": "A\udc80"}) == "the text “A\\udc80” holds a lone surrogate: it is not valid Unicode"


@pytest.mark.parametrize(
    "value", ["Ann", "\ud7ff\ue000", "Ann \U0001f600", ["Ann", 3, None, True], {"a": {"b": ["c"]}}, 7, None]
)
def test_text_without_a_lone_surrogate_passes(value):
    assert surrogate_fault(value) is None


@pytest.mark.parametrize(
    "text",
    [
        "=1+1",
        "+1",
        "-1",
        "@SUM(A1)",
        "\tx",
        "\rx",
        "=",
        "\uff1d1",
        "\uff0b1",
        "\uff0d1",
        "\uff201",
        "\ufe661",
        "\ufe621",
    ],
)
def test_what_a_spreadsheet_reads_as_a_formula(text):
    assert begins_like_formula(text)


@pytest.mark.parametrize("text", ["", "Ann", "1+1", "a=b", " =1", "x-1", "\u00e9"])
def test_what_a_spreadsheet_reads_as_text(text):
    assert not begins_like_formula(text)
