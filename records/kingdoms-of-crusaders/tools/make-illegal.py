#!/usr/bin/env python3
"""make-illegal.py - writes records/kingdoms-of-crusaders/illegal/: each
record is a valid game with one mistake, and a header saying what it is.

The sidecars NAME.expect are written by running herald and must be
reviewed by hand: each must hold the one diagnostic the mistake deserves.
  python3 make-illegal.py            # records only
  HERALD=path/to/herald python3 make-illegal.py --expect
"""
import os
import re
import subprocess
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))
VALID = os.path.join(TOOLS, "..", "valid")
ILLEGAL = os.path.join(TOOLS, "..", "illegal")


def base(name):
    text = open(os.path.join(VALID, name)).read()
    # drop the header comment of the valid record: each illegal record has its own
    lines = text.split("\n")
    while lines and lines[0].startswith(";"):
        lines.pop(0)
    return "\n".join(lines)


def sub(text, old, new, count=1):
    if old not in text:
        raise SystemExit("not found: %r" % old)
    return text.replace(old, new, count)


def regex(text, pattern, new):
    out, n = re.subn(pattern, new, text, count=1, flags=re.M)
    if n != 1:
        raise SystemExit("no match: %r" % pattern)
    return out


def unfinished(text, upto):
    """The game cut after the line holding `upto`, declared unfinished."""
    i = text.index(upto)
    j = text.index("\n", i)
    text = text[:j + 1]
    text = re.sub(r'\[Result "[^"]*"\]', '[Result "*"]', text)
    return text + "*\n"


RECORDS = {}


def record(name, header, text):
    RECORDS[name] = "\n".join("; " + h if h else ";" for h in header.strip().split("\n")) + \
        "\n" + text


L2 = base("levels-two-players.hgn")

record("sector-full", """
Mistake: Ana places a fifth card in sector 1, which holds four already.
'Turn sequence', step 2: each player's sector holds at most four cards.""",
       unfinished(sub(L2, "P1: place c20 5", "P1: place c20 1"), "P1: place c20 1"))

record("not-in-hand", """
Mistake: Ana places c28, a card in Ben's hand.""",
       unfinished(sub(L2, "P1: place c27 1", "P1: place c28 1"), "P1: place c28 1"))

record("out-of-turn", """
Mistake: round 2 begins with Ben, but Ana plays first in every round.""",
       unfinished(sub(L2, "2. P1: draw c06", "2. P2: draw c06"), "2. P2: draw c06"))

record("draw-missing", """
Mistake: Ana places a card without drawing first (a skipped draw).""",
       unfinished(sub(L2, "2. P1: draw c06 P1: place c27 1", "2. P1: place c27 1"),
                  "2. P1: place c27 1"))

record("draw-twice", """
Mistake: Ana draws twice in one turn.""",
       unfinished(sub(L2, "2. P1: draw c06 P1: place c27 1",
                      "2. P1: draw c06 P1: draw c14 P1: place c27 1"), "P1: draw c14"))

record("draw-mismatch", """
Mistake: the DeckOrder puts c06 on top in round 2, but the record says Ana
drew c16.""",
       unfinished(sub(L2, "2. P1: draw c06", "2. P1: draw c16"), "2. P1: draw c16"))

record("deck-empty", """
Mistake: the game of valid/own-deck.hgn, whose deck file holds 42 cards: in
round 17 the deck is empty (2 x 5 dealt and 32 drawn), but the record has
Ana draw.  Ruling 3: with the deck empty the draw is skipped.  (The
shipped deck of 56 cards never runs out: 2 x 5 dealt and 40 drawn at
most.)""",
       unfinished(sub(sub(base("own-deck.hgn"), "17. P1: place k29 2",
                          "17. P1: draw k29 P1: place k29 2"),
                      '[DeckFile "own-deck.yaml"]', '[DeckFile "own-deck.yaml"]'),
                  "17. P1: draw k29"))

record("not-won", """
Mistake: Ana claims territory 1 as soon as her army there is complete, but
Ben can still gather a better army there: it is not won yet.""",
       unfinished(regex(L2, r"^4\. P1: draw c12 P1: place c30 1$",
                        "4. P1: draw c12 P1: place c30 1 P1: win 1 #1"), "P1: win 1 #1"))

record("claim-missing", """
Mistake: Ana's placement of c05 wins territory 2 (every army there is
complete), but the record goes on without saying so.""",
       unfinished(regex(L2, r"12\. P1: draw c36 P1: place c05 2 P1: win 2 #1\n\{Territory 2[^}]*\}\n",
                        "12. P1: draw c36 P1: place c05 2\n"), "P2: draw c37 P2: place c25 4"))

record("marker-number", """
Mistake: territory 3 is the second territory won, so it takes victory
marker #2, not #3.""",
       unfinished(sub(L2, "P1: win 3 #2", "P1: win 3 #3"), "P1: win 3 #3"))

record("after-end", """
Mistake: the fifth victory marker ends the game, but an action follows.""",
       sub(L2, "P2: win 5 #5\n", "P2: win 5 #5 P1: place c01 1\n"))

record("result-wrong", """
Mistake: the declared result names Ben, but Ana won three territories.""",
       sub(sub(L2, '[Result "P1"]', '[Result "P2"]'), '\n"P1"\n', '\n"P2"\n'))

record("unknown-card", """
Mistake: there is no card c72 in the deck (c01 ... c40).""",
       unfinished(sub(L2, "P1: place c27 1", "P1: place c72 1"), "P1: place c72 1"))

record("unknown-seat", """
Mistake: a two-player game has no seat P3.""",
       unfinished(sub(L2, "2. P1: draw c06", "2. P3: draw c06"), "2. P3: draw c06"))

record("sector", """
Mistake: a location card has five sectors; there is no sector 6.""",
       unfinished(sub(L2, "P1: place c27 1", "P1: place c27 6"), "P1: place c27 6"))

record("syntax", """
Mistake: a placement names the card and the sector; the sector is missing.""",
       unfinished(sub(L2, "P1: place c27 1", "P1: place c27"), "P1: place c27"))

record("deal", """
Mistake: Ben draws before he has been dealt his five cards.""",
       unfinished(sub(L2, "P2: deal c17 c28 c01 c15 c08", "P2: draw c17"), "P2: draw c17"))

record("card-seen", """
Mistake: with no Seed and no DeckOrder draws are free, but a card drawn
must be one not seen before: c13 already lies in Ana's sector 1.""",
       unfinished(sub(regex(L2, r'^\[DeckOrder "[^"]*"\]\n', ""), "2. P1: draw c06",
                      "2. P1: draw c13"), "2. P1: draw c13"))

record("players", """
Mistake: the game is for two to four players.""",
       unfinished(sub(L2, '[Players "Ana; Ben"]', '[Players "Ana"]'), "1. P1: deal"))

record("variant", """
Mistake: the variants are 'markers' and 'points'.""",
       unfinished(sub(L2, '[First "P1"]', '[First "P1"]\n[Variant "cards"]'), "1. P1: deal"))

record("first-player", """
Mistake: with a Seed, the lot for the first player follows from it (the
stream "<Seed>/first", ruling 2), and it gave Ana, not Ben.""",
       unfinished(sub(base("seed-two-markers.hgn"), '[First "P1"]', '[First "P2"]'),
                  "1. P1: deal"))

record("deck-order", """
Mistake: the DeckOrder tag must list every card in play once; c40 is
missing.""",
       unfinished(sub(L2, " c40 c36", " c36"), "1. P1: deal"))

record("deck-file", """
Mistake: the DeckFile names a file that does not exist.""",
       unfinished(sub(L2, '[First "P1"]', '[First "P1"]\n[DeckFile "no-such-deck.yaml"]'),
                  "1. P1: deal"))

EW = base("early-win-hand.hgn")
LAST = re.search(r'\[DeckOrder "[^"]* (c\d+)"\]', EW).group(1)
EW_DECK = re.sub(r'(\[DeckOrder "[^"]*?)c55([^"]*?)%s"' % LAST, r'\g<1>%s\g<2>c55"' % LAST, EW)
record("early-win-deck", """
Mistake (ruling 6): the game of valid/early-win-hand.hgn, but Ana is dealt
%s instead of c55, which stays in the deck: Ben could still draw it and
gather a better army in territory 1, so Ana's claim comes too early.""" % LAST,
       unfinished(sub(EW_DECK, "P1: deal c56 c43 c22 c34 c55", "P1: deal c56 c43 c22 c34 %s" % LAST),
                  "P1: win 1 #1"))

EWH = base("early-win-hidden.hgn")
BEN_DEAL = re.search(r"P2: deal c09 c07 c40 c\d+ c\d+", EWH).group(0)
record("early-win-hidden-refused", """
Mistake (ruling 6, ruling 10): the game of valid/early-win-hidden.hgn, kept
by Ben with Ana's cards hidden, but Ben is dealt c55.  Whatever Ana's hidden
cards are, Ben can still gather a better army in territory 1 with c55: no
assignment of the hidden cards wins it, and the claim is an error, not
unverified.""",
       unfinished(sub(EWH, BEN_DEAL, BEN_DEAL.rsplit(" ", 1)[0] + " c55"), "P1: win 1 #1"))

record("marker-tie-result", """
Mistake (ruling 8): with MarkerTie "sum" the greater sum of marker numbers
loses; P3 (#3 #4, sum 7) loses to P2 (#1 #5, sum 6).  The result given is
the default reading's.""",
       sub(sub(base("marker-tie-sum.hgn"), '[Result "P2"]', '[Result "P3"]'),
           '\n"P2"\n', '\n"P3"\n'))

record("marker-tie-unknown", """
Mistake: MarkerTie is "highest" (the default) or "sum".""",
       unfinished(sub(base("marker-tie-sum.hgn"), '[MarkerTie "sum"]', '[MarkerTie "lowest"]'),
                  "1. P"))

DECK_HEAD = "game: kingdoms-of-crusaders\nreconstructed: false\ncards:\n"


def deck_file(name, cards):
    with open(os.path.join(ILLEGAL, name), "w") as f:
        f.write(DECK_HEAD + cards)


def standard_cards(n=40, change=None):
    import yaml
    doc = yaml.safe_load(open(os.path.join(TOOLS, "..", "..", "..", "data",
                                           "kingdoms-of-crusaders", "deck.yaml")))
    lines = []
    for c in doc["cards"][:n]:
        line = "  - {id: %s, symbols: [%s]}" % (c["id"], ", ".join(c["symbols"]))
        if change and c["id"] in change:
            line = change[c["id"]]
        lines.append(line)
    return "\n".join(lines) + "\n"


def deck_record(name, header, deck):
    record(name, header, unfinished(sub(L2, '[First "P1"]',
                                        '[First "P1"]\n[DeckFile "%s"]' % deck), "1. P1: deal"))


deck_file("duplicate-card.yaml", standard_cards(change={"c12": "  - {id: c11, symbols: [lance, bow]}"}))
deck_record("duplicate-card", """
Mistake: the deck file (duplicate-card.yaml) lists card c11 twice: a deck
whose card appears twice.""", "duplicate-card.yaml")
deck_file("symbol-twice.yaml", standard_cards(change={"c13": "  - {id: c13, symbols: [lance, swords, lance]}"}))
deck_record("symbol-twice", """
Mistake: in the deck file, card c13 shows the lance twice; a card's
symbols are a set.""", "symbol-twice.yaml")
deck_file("no-symbols.yaml", standard_cards(change={"c09": "  - {id: c09, symbols: []}"}))
deck_record("no-symbols", """
Mistake: in the deck file, card c09 shows no symbol.""", "no-symbols.yaml")
deck_file("unknown-symbol.yaml", standard_cards(change={"c10": "  - {id: c10, symbols: [crossbow]}"}))
deck_record("unknown-symbol", """
Mistake: in the deck file, card c10 shows 'crossbow', which is not one of
the five kinds (lance, bow, swords, helmet, banner).""", "unknown-symbol.yaml")
deck_file("unknown-key.yaml", standard_cards(change={"c01": "  - {id: c01, symbols: [lance], power: 1}"}))
deck_record("unknown-key", """
Mistake: in the deck file, card c01 has a key 'power' the format does not
define.""", "unknown-key.yaml")
deck_file("small-deck.yaml", standard_cards(30))
deck_record("deck-too-small", """
Mistake: the deck file is well formed but holds 30 cards; two players
need 40 (ruling 3: every player can fill all five sectors).""", "small-deck.yaml")


def main():
    os.makedirs(ILLEGAL, exist_ok=True)
    # deck-empty plays valid/own-deck.hgn, whose deck file it needs beside it
    with open(os.path.join(VALID, "own-deck.yaml")) as src, \
            open(os.path.join(ILLEGAL, "own-deck.yaml"), "w") as dst:
        dst.write(src.read())
    for name, text in RECORDS.items():
        with open(os.path.join(ILLEGAL, name + ".hgn"), "w") as f:
            f.write(text)
    if "--expect" in sys.argv:
        herald = os.environ.get("HERALD", "herald")
        for name in RECORDS:
            out = subprocess.run([herald, "check", name + ".hgn"], cwd=ILLEGAL,
                                 capture_output=True, text=True).stdout
            diags = [line for line in out.split("\n")
                     if re.match(r"^[^ ]+:[0-9]+(:[0-9]+)?: (error|warning|unverified): ", line)
                     or re.match(r"^[^ ]+: (error|warning|unverified): ", line)]
            with open(os.path.join(ILLEGAL, name + ".expect"), "w") as f:
                f.write("".join(d + "\n" for d in diags))
            print("%-16s %s" % (name, " | ".join(diags)))


main()
