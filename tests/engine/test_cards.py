import pytest

from tutor.engine.cards import code, codes, parse_card, parse_cards, parse_rank, pretty
from tutor.engine.errors import NotationError


@pytest.mark.parametrize("text", ["7h", "7H", "7♥", " 7h ", "7♡"])
def test_seven_of_hearts_in_every_notation(text):
    assert code(parse_card(text)) == "7H"


@pytest.mark.parametrize(
    "text,expected",
    [
        ("10♥", "TH"),
        ("TH", "TH"),
        ("th", "TH"),
        ("10s", "TS"),
        ("as", "AS"),
        ("Kc", "KC"),
        ("q♦", "QD"),
    ],
)
def test_tens_and_faces(text, expected):
    assert code(parse_card(text)) == expected


def test_pretty_writes_ten_as_10_and_symbols_or_letters():
    assert pretty(parse_card("TH")) == "10♥"
    assert pretty(parse_card("TH"), symbols=False) == "10H"


@pytest.mark.parametrize("bad", ["", "7", "7x", "1h", "11h", "zz", "7hh", "♥7"])
def test_bad_notation_names_the_input_and_what_is_expected(bad):
    with pytest.raises(NotationError) as exc:
        parse_card(bad)
    msg = str(exc.value)
    assert repr(bad) in msg
    assert "expected" in msg


def test_parse_cards_reads_spaces_and_commas_and_refuses_repeats():
    assert codes(parse_cards("7h, 7s 10♦")) == ["7H", "7S", "TD"]
    with pytest.raises(NotationError, match="twice"):
        parse_cards("7h 7H")


def test_card_order_is_rank_then_suit():
    assert codes(parse_cards("KS AH 2C AC TD")) == ["AC", "AH", "2C", "TD", "KS"]


@pytest.mark.parametrize("text,rank", [("A", 0), ("10", 9), ("t", 9), ("sevens", 6), ("queen", 11)])
def test_parse_rank(text, rank):
    assert parse_rank(text) == rank
    with pytest.raises(NotationError):
        parse_rank("eleven")


def test_a_long_or_nested_input_is_named_briefly():
    from tutor.engine.cards import parse_card

    for bad in ["[" * 5000 + "H", "7" * 5000, [[[[[]]]]], {"a": 1}, 10**40]:
        with pytest.raises(NotationError) as exc:
            parse_card(bad)
        assert len(str(exc.value)) < 200, str(exc.value)[:300]
    nested: list = []
    for _ in range(5000):
        nested = [nested]
    with pytest.raises(NotationError, match="a list is not a card"):
        parse_card(nested)


def test_every_spelling_read_at_once_is_read_as_character_by_character():
    """The looked-up spellings (:data:`tutor.engine.cards._SPELLED`) give the card the full
    reading gives, and the full reading still reads the rest (spaces, one emoji suit)."""
    from tutor.engine.cards import _SPELLED, _parse_card

    assert len(_SPELLED) >= 52 * 2
    for text, card in _SPELLED.items():
        assert _parse_card(text) == card == parse_card(text)
    assert parse_card(" 7h ") == parse_card("7\u2665\ufe0f") == parse_card("7H")
    with pytest.raises(NotationError):
        parse_card("1H")
