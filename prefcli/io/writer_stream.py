"""A record's canonical text written deal by deal (what convert writes): the head, each deal,
the tail, handed on in chunks, the same bytes as the whole text of :mod:`prefcli.io.writer_text`
and :mod:`prefcli.io.writer_json`.

A deal comes as its plain data or as the model's Deal (:meth:`prefcli.io.writer.RecordParts.entries`).
A Deal is written from the model: :func:`deal_items` is deal_to_data's fields, its card texts
made from its cards and so known to be canonical, written as they are by :func:`deal_yaml` and
:func:`prefcli.io.writer_json.deal_json` (tests/test_writer_model.py holds both to the long way).
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

from prefcli.io.writer import deal_to_data, penalty_to_data
from prefcli.io.writer_text import (_MAX_SCALAR, FLOW_WIDTH, _DirectYaml, _mark, _NotDirect, _pyyaml_text,
                                    _scalar_len)
from prefcli.model.cards import Call, Decision, format_cards
from prefcli.model.records import Deal

#: how a field of a deal is written from the model (:func:`deal_items`): as any plain value; as
#: card texts known to be canonical (one card text; a mapping of them; a list of them that holds
#: a text of two cards or more); or SMALL: the value is still the model's (the auction's calls,
#: the whist decisions, the tricks or claim of texts and integers), its plain form made by
#: :func:`plain_of` and its text written once for each content (thousands of deals share a few)
GENERIC, CARDS, HANDS, TRICKS, SMALL = 0, 1, 2, 3, 4

#: at most so many fields' texts remembered by one writer (SMALL fields)
FIELD_MEMO = 4096


def plain_of(key: str, value: Any) -> Any:
    """The plain value of a SMALL field (as deal_to_data makes it)."""
    if key == "auction":
        return [str(c) for c in value]
    if key == "whist":
        return {name: str(v) for name, v in value}
    return {name: v for name, v in value}


def _keyed(pairs: Any, kind: type) -> bool:
    """Whether a deal's pairs are texts and values of exactly `kind`, so that equal pairs have
    the same text (1, 1.0 and True are equal, and would share a text in the memo)."""
    for name, v in pairs:
        if type(name) is not str or type(v) is not kind:
            return False
    return True


def _holders_once(hands: Any) -> bool:
    """Whether a deal's hands name each holder once, as the long way's mapping (writer._pairs)
    keeps them: a made-up deal that names one twice is left to that mapping by the one-pass
    writers, which would write every row."""
    return len(hands) < 2 or len({pair[0] for pair in hands}) == len(hands)


def _calls(calls: Any) -> bool:
    for c in calls:
        if type(c) is not Call:
            return False
    return True


def _card_text(cards: Any) -> Optional[str]:
    """format_cards(cards) when it is a canonical card text (one Card or more: each one's text
    is a rank and a suit letter of the deck): plain in YAML in any context, and in JSON a string
    without escapes; None otherwise."""
    try:
        text = " ".join([c._text for c in cards])
    except (AttributeError, TypeError):
        return None
    return text if text and len(text) <= _MAX_SCALAR else None


def deal_items(deal: Deal) -> List[Tuple[str, Any, int]]:
    """:func:`prefcli.io.writer.deal_to_data` as (key, value, how) in its order: the same keys
    and plain values (SMALL ones made by :func:`plain_of`; tests/test_writer_model.py compares
    them), each with how the writers may write it (HANDS, CARDS, TRICKS: canonical card texts,
    written as they are; SMALL: a text remembered by content; GENERIC: as any plain value). A
    deal's card texts are made from its cards, so they need no look at their characters, and the
    layout of a full deal's hands and play follows from their lengths."""
    items: List[Tuple[str, Any, int]] = []
    add = items.append
    if deal.dealer is not None:
        add(("dealer", deal.dealer, GENERIC))
    if deal.hands is not None:
        hands: Dict[Any, str] = {}
        how = HANDS
        for name, cards in deal.hands:
            text = _card_text(cards)
            if text is None or type(name) is not str:
                how = GENERIC
                text = format_cards(cards)
            hands[name] = text
        add(("hands", hands, how if hands else GENERIC))
    if deal.talon is not None:
        text = _card_text(deal.talon)
        add(("talon", text, CARDS) if text is not None else ("talon", format_cards(deal.talon), GENERIC))
    if deal.auction is not None:
        add(("auction", deal.auction, SMALL) if _calls(deal.auction) else
            ("auction", [str(c) for c in deal.auction], GENERIC))
    if deal.bid is not None:
        add(("bid", str(deal.bid), GENERIC))
    if deal.discard is not None:
        text = _card_text(deal.discard)
        add(("discard", text, CARDS) if text is not None else ("discard", format_cards(deal.discard), GENERIC))
    add(("contract", str(deal.contract), GENERIC))
    if deal.declarer is not None:
        add(("declarer", deal.declarer, GENERIC))
    if deal.whist:
        add(("whist", deal.whist, SMALL) if _keyed(deal.whist, Decision) else
            ("whist", {name: str(v) for name, v in deal.whist}, GENERIC))
    if deal.returned_by is not None:
        add(("return", deal.returned_by, GENERIC))
    if deal.open is not None:
        add(("open", deal.open, GENERIC))
    if deal.dark:
        add(("dark", True, GENERIC))
    if deal.bomb is not None:
        add(("bomb", deal.bomb, GENERIC))
    if deal.takeover is not None:
        add(("takeover", deal.takeover, GENERIC))
    if deal.partner is not None:
        add(("partner", deal.partner, GENERIC))
    if deal.concede:
        add(("concede", True, GENERIC))
    if deal.without_all:
        add(("without_all", True, GENERIC))
    if deal.position:
        add(("position", True, GENERIC))
    if deal.play is not None:
        try:        # _card_text of each trick, in one go (a full deal's play is ten tricks)
            texts = [" ".join([c._text for c in t]) for t in deal.play]  # type: ignore[attr-defined]
        except (AttributeError, TypeError):
            texts = []
        if texts and all(texts) and any(" " in t for t in texts) and max(map(len, texts)) <= _MAX_SCALAR:
            add(("play", texts, TRICKS))
        else:
            add(("play", [format_cards(t) for t in deal.play], GENERIC))
    if deal.claim is not None:
        add(("claim", deal.claim, SMALL) if _keyed(deal.claim, int) else
            ("claim", {name: v for name, v in deal.claim}, GENERIC))
    if deal.tricks is not None:
        add(("tricks", deal.tricks, SMALL) if _keyed(deal.tricks, int) else
            ("tricks", {name: v for name, v in deal.tricks}, GENERIC))
    if deal.irregularities:
        add(("irregularities", [{"kind": i.kind, "by": i.by} for i in deal.irregularities], GENERIC))
    if deal.penalties:
        add(("penalties", [penalty_to_data(p, ("deals", deal.pos, "penalties", i))
                           for i, p in enumerate(deal.penalties)], GENERIC))
    if deal.note is not None:
        add(("note", deal.note, GENERIC))
    return items


def deal_yaml(writer: _DirectYaml, deal: Deal) -> str:
    """The text of `deal` as an item of the `deals` block sequence: "  - " and
    ``writer.block_mapping(deal_to_data(deal), 4, True, 4, True)``, written from the model.

    A deal of the usual fields is written by :class:`DealLines` (one pass, the texts of names,
    contracts and small fields made once a writer); anything else, and whatever DealLines
    declines, field by field from :func:`deal_items` (:func:`deal_yaml_items`)."""
    lines = writer._lines
    if lines is None:
        lines = writer._lines = DealLines(writer)
    text = lines.deal(deal)
    return text if text is not None else deal_yaml_items(writer, deal)


def deal_yaml_items(writer: _DirectYaml, deal: Deal) -> str:
    """:func:`deal_yaml` field by field from :func:`deal_items`.

    Each field is what block_mapping writes for it; the card fields skip the scalar analysis
    (a canonical card text is plain) and the flow-or-block decision is made from the texts'
    lengths: the hands are a block when their one-line form passes FLOW_WIDTH (else the long
    way decides), the play is a block list whenever a trick has two cards (`_phrases`). Raises
    _NotDirect where the direct writer would."""
    out = writer.out = ["  - "]
    texts = writer._cache[0]
    memo = writer._fields
    pre = ""
    for k, v, how in deal_items(deal):
        if how == SMALL:
            got = memo.get((k, v))
            if got is None:
                mark = len(out)
                writer.unmarked(plain_of(k, v), 6, 6 + len(k), False, 4)
                got = "".join(out[mark:])
                del out[mark:]
                if len(memo) < FIELD_MEMO:
                    memo[(k, v)] = got
            out.append(pre + k + ":" + got)
        elif how == CARDS:
            out.append(pre + k + ": " + v + "\n")
        elif how == HANDS and 13 + sum(_scalar_len(n) + 4 + len(t) for n, t in v.items()) > FLOW_WIDTH:
            out.append(pre + k + ":\n")
            for n, t in v.items():
                out.append("      " + writer.key(n, False) + ": " + t + "\n")
        elif how == TRICKS:
            out.append(pre + k + ":\n")
            out.extend(["      - " + t + "\n" for t in v])
        elif type(v) is str:
            out.append(pre + k + ": " + (texts.get(v) or writer.text(v, False, False)) + "\n")
        else:
            out.append(pre + k + ":")
            writer.unmarked(v, 6, 6 + len(k), False, 4)
        pre = "    "
    return "".join(out)


def _trick_texts(play: Any) -> Optional[List[str]]:
    """The texts of the tricks when deal_items writes them as TRICKS (each a canonical card
    text under the bound, one of two cards or more), else None."""
    try:
        texts = [" ".join([c._text for c in t]) for t in play]
    except (AttributeError, TypeError):
        return None
    if texts and "" not in texts and any([" " in t for t in texts]) and max(map(len, texts)) <= _MAX_SCALAR:
        return texts
    return None


class DealLines:
    """:func:`deal_yaml_items`' text of a deal of the usual fields (dealer, hands, talon,
    auction, discard, contract, declarer, whist, open, play, tricks), written in one pass
    over the model with the texts that repeat made once a writer: a name's line (a hand's row
    prefix, a dealer's or declarer's line), a contract's line, a small field's text (the
    writer's memo of :func:`deal_items`' SMALL fields, shared with it). A deal's cards are
    joined once a hand or trick and the deal's lines once. :meth:`deal` gives None for any
    other field or value (the items' way writes it, or declines), so the texts it gives are
    those of the long way (tests/test_writer_model.py compares both on every example,
    generated records and made-up deals)."""

    def __init__(self, writer: _DirectYaml) -> None:
        self.writer = writer
        self.texts = writer._cache[0]
        self.memo = writer._fields
        #: a name's hand row prefix ("      Bob: ") and its written length, by name
        self.rows: Dict[str, Tuple[str, int]] = {}
        #: "    dealer: Ann\n", "    declarer: Ann\n", "    contract: 6S\n", by the value
        self.dealers: Dict[str, str] = {}
        self.declarers: Dict[str, str] = {}
        self.contracts: Dict[Any, str] = {}

    def _line(self, table: Dict[Any, str], key: str, value: Any, text: str) -> str:
        got = table[value] = "    " + key + ": " + (self.texts.get(text) or self.writer.text(text, False, False)) + "\n"
        return got

    def _small(self, key: str, value: Any) -> str:
        """The text after `key:` of a SMALL field, as deal_yaml_items writes and remembers it."""
        writer = self.writer
        saved = writer.out
        writer.out = []
        try:
            writer.unmarked(plain_of(key, value), 6, 6 + len(key), False, 4)
            got = "".join(writer.out)
        finally:
            writer.out = saved
        if len(self.memo) < FIELD_MEMO:
            self.memo[(key, value)] = got
        return got

    def deal(self, deal: Deal) -> Optional[str]:
        """The deal's text, or None when it has a field or value this does not write."""
        if (deal.bid is not None or deal.dark or deal.bomb is not None or deal.takeover is not None
                or deal.partner is not None or deal.concede or deal.without_all or deal.position
                or deal.irregularities or deal.penalties or deal.note is not None):
            return None
        memo = self.memo
        # the model's values, each asked for what it is (a text, cards with their texts...)
        name: Any
        cards: Any
        pairs: Any
        parts: List[str] = []
        add = parts.append
        name = deal.dealer
        if name is not None:
            if type(name) is not str:
                return None
            add(self.dealers.get(name) or self._line(self.dealers, "dealer", name, name))
        hands: Any = deal.hands
        if hands is not None:
            if not hands or not _holders_once(hands):
                return None
            rows = self.rows
            width = 13
            add("    hands:\n")
            for name, cards in hands:
                if type(name) is not str:
                    return None
                try:
                    text = " ".join([c._text for c in cards])
                except (AttributeError, TypeError):
                    return None
                if not text or len(text) > _MAX_SCALAR:
                    return None
                row = rows.get(name)
                if row is None:
                    row = rows[name] = ("      " + self.writer.key(name, False) + ": ", _scalar_len(name))
                width += row[1] + 4 + len(text)
                add(row[0] + text + "\n")
            if width <= FLOW_WIDTH:         # one line, maybe: the items' way decides
                return None
        cards = deal.talon
        if cards is not None:
            try:
                text = " ".join([c._text for c in cards])
            except (AttributeError, TypeError):
                return None
            if not text or len(text) > _MAX_SCALAR:
                return None
            add("    talon: " + text + "\n")
        calls = deal.auction
        if calls is not None:
            got = memo.get(("auction", calls))
            if got is None:
                if not _calls(calls):
                    return None
                got = self._small("auction", calls)
            add("    auction:" + got)
        cards = deal.discard
        if cards is not None:
            try:
                text = " ".join([c._text for c in cards])
            except (AttributeError, TypeError):
                return None
            if not text or len(text) > _MAX_SCALAR:
                return None
            add("    discard: " + text + "\n")
        contract = deal.contract
        add(self.contracts.get(contract) or self._line(self.contracts, "contract", contract, str(contract)))
        name = deal.declarer
        if name is not None:
            if type(name) is not str:
                return None
            add(self.declarers.get(name) or self._line(self.declarers, "declarer", name, name))
        pairs = deal.whist
        if pairs:
            if not _keyed(pairs, Decision):
                return None
            add("    whist:" + (memo.get(("whist", pairs)) or self._small("whist", pairs)))
        name = deal.returned_by
        if name is not None:
            if type(name) is not str:
                return None
            add("    return: " + (self.texts.get(name) or self.writer.text(name, False, False)) + "\n")
        flag = deal.open
        if flag is not None:
            if flag is True:
                add("    open: true\n")
            elif flag is False:
                add("    open: false\n")
            else:
                return None
        play: Any = deal.play
        if play is not None:
            try:        # tricks of three cards (every trick but an all-pass's talon-led ones)
                texts: Optional[List[str]] = [a._text + " " + b._text + " " + c._text for a, b, c in play]
            except (ValueError, TypeError, AttributeError):
                texts = _trick_texts(play)
            if not texts:
                return None
            add("    play:\n      - " + "\n      - ".join(texts) + "\n")
        pairs = deal.claim
        if pairs is not None:
            if not _keyed(pairs, int):
                return None
            add("    claim:" + (memo.get(("claim", pairs)) or self._small("claim", pairs)))
        pairs = deal.tricks
        if pairs is not None:
            if not _keyed(pairs, int):
                return None
            add("    tricks:" + (memo.get(("tricks", pairs)) or self._small("tricks", pairs)))
        text = "".join(parts)
        return "  - " + text[4:]


# ---------------------------------------------------------------------------------------------
# The same text, written deal by deal
# ---------------------------------------------------------------------------------------------

#: the streamed writers hand their text on in pieces of about this many characters
CHUNK = 1 << 16


def batched(pieces: Iterable[str], size: int = CHUNK) -> Iterator[str]:
    """The pieces joined into chunks of about `size` characters (one write per chunk, not per deal).

    The cycle collector is paused while a chunk is made (and runs again while it is written):
    each deal's plain data and text are fresh containers that reference counting frees, but
    their allocation set the collector walking the whole record over and over (a tenth of
    convert's writing)."""
    import gc
    it = iter(pieces)
    while True:
        buf: List[str] = []
        n = 0
        enabled = gc.isenabled()
        gc.disable()
        try:
            for piece in it:
                buf.append(piece)
                n += len(piece)
                if n >= size:
                    break
        finally:
            if enabled:
                gc.enable()
        if not buf:
            return
        yield "".join(buf)


def _pyyaml_part(data: Dict[str, Any], skip: str = "") -> Tuple[str, bool]:
    """PyYAML's lines of a document's top-level keys as they are in the whole document (less
    the first `skip` characters), and whether it ended them with `...`: that marker (after a
    text that keeps its final newlines) is the document's end, written once, after the last part."""
    text = _pyyaml_text(_mark(data, 0, 0))
    ended = text.endswith("\n...\n")
    return (text[:-4] if ended else text)[len(skip):], ended


def yaml_pieces(head: Dict[str, Any], deals: Iterable[Any], tail: Dict[str, Any]) -> Iterator[str]:
    """dump_yaml(head + deals + tail) in pieces, a deal at a time: the bytes are the same.

    Each top-level key is written alone in both writers (the direct one and PyYAML), so the
    document is its parts in order: the head, `deals:` and each deal as an item of its block
    sequence (indent 2, a block mapping at 4: what `_mark` and the direct writer decide for a
    deal of the list), the tail. A part the direct writer leaves to PyYAML is PyYAML's text of
    that part (tests/test_convert_stream.py compares with the whole text). A deal may come as
    its plain data or as the model's Deal (:meth:`prefcli.io.writer.RecordParts.entries`),
    written from the model by :func:`deal_yaml` (or made plain when that declines)."""
    writer = _DirectYaml()

    def part(data: Dict[str, Any]) -> Tuple[str, bool]:
        writer.out = []
        try:
            return writer.write(data), False
        except _NotDirect:
            return _pyyaml_part(data)

    text, ended = part(head)
    yield text
    count = 0
    for deal in deals:
        if count == 0:
            yield "deals:\n"
        count += 1
        text, ended = "", False
        if isinstance(deal, Deal):          # the model (RecordParts.entries): written from it
            try:
                text = deal_yaml(writer, deal)
            except _NotDirect:
                deal = deal_to_data(deal, ("deals", deal.pos))
        if not text and type(deal) is dict and deal:
            writer.out = ["  - "]
            try:
                writer.block_mapping(deal, 4, True, 4, True)
                text = "".join(writer.out)
            except _NotDirect:
                text = ""
        if not text:
            text, ended = _pyyaml_part({"deals": [deal]}, "deals:\n")
        yield text
    if count == 0:
        yield "deals: []\n"
        ended = False
    if tail:
        text, ended = part(tail)
        yield text
    writer.out = []
    if ended:
        yield "...\n"
