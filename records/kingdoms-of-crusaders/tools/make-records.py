#!/usr/bin/env python3
"""make-records.py - writes the teaching records of valid/ from plans.

Run from anywhere: python3 records/kingdoms-of-crusaders/tools/make-records.py
then `herald check records/kingdoms-of-crusaders/valid` must be clean.
Hand-written comments live here, beside the plans; the comments on each
territory won come from kocsim's independent model of the rules.
"""
import os
import random
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kocsim import annotate, load_deck, write_record  # noqa: E402

VALID = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "valid")
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "data")
HERALD = os.environ.get("HERALD", "herald")


def generated(game_seed, players, variant, index):
    """Game `index` of `herald gen -g koc -s SEED -n index+1 -p N -v V`."""
    text = subprocess.run([HERALD, "gen", "--data-dir", DATA, "-g", "kingdoms-of-crusaders",
                           "-s", game_seed,
                           "-n", str(index + 1), "-p", str(players), "-v", variant],
                          check=True, capture_output=True, text=True).stdout
    games = text.strip("\n").split("\n\n[Game")
    game = games[index] if index == 0 else "[Game" + games[index]
    f = tempfile.NamedTemporaryFile("w", suffix=".hgn", delete=False)
    f.write(game)
    f.close()
    return f.name


def from_gen(name, game_seed, players, variant, index, header, comments=None, date=None):
    src = generated(game_seed, players, variant, index)
    try:
        res = annotate(src, out(name), header, comments, date=date)
    finally:
        os.unlink(src)
    return res


def out(name):
    return os.path.join(VALID, name)


def seq(*groups):
    """Placements: each group is (sector, "cA cB cC cD")."""
    return ["%s:%d" % (c, k) for k, cards in groups for c in cards.split()]


def levels_two_players():
    # Five territories, each decided by a different step of ruling 5
    # between two complete armies.  In every territory the loser completes
    # first, so nothing is won early: each is decided when the second army
    # is complete.
    plan = {
        "P1": seq((1, "c13 c27 c33 c30"), (5, "c20 c22 c06 c16"),
                  (2, "c12 c04 c26 c05"), (3, "c03 c38 c39 c24"), (4, "c36 c32 c02 c19")),
        "P2": seq((2, "c17 c28 c01 c15"), (3, "c08 c18 c14 c10"), (4, "c11 c21 c29 c25"),
                  (1, "c23 c35 c31 c40"), (5, "c37 c09 c34 c07")),
    }
    tags = {"Game": "kingdoms-of-crusaders", "Date": "2026.11.21",
            "Event": "herald teaching records", "Players": "Ana; Ben", "First": "P1"}
    header = """The ranking of armies, steps 1 to 5 (ruling 5 of herald-kingdoms-of-crusaders(7)).
Two players, one deck, the markers variant.  The DeckOrder tag lists the
whole deck, top card first, so every draw is checked against it.
Ana fills sectors 1 and 5 first, Ben sectors 2, 3 and 4: in every territory
the army that will lose is completed first, and each territory is decided
by comparing two complete armies."""
    comments = {
        ("deal", "P2"): "Each player is dealt five cards, the first player (Ana, P1) first. "
                        "Then each turn is one draw and one placement.",
        ("P1", "c30"): "Ana's army in sector 1 is complete: four cards.  It is not won: "
                       "Ben can still gather a better army there.",
    }
    return write_record(out("levels-two-players.hgn"), tags, plan, comments, header=header)


def levels_points_early():
    # Steps 6, 7 and 8 of ruling 5, two early wins (ruling 6) and the
    # points variant (ruling 9), two players.
    plan = {
        "P1": seq((2, "c08 c13 c31 c11"), (1, "c23 c09 c20 c12"), (3, "c26 c32 c17"),
                  (4, "c37"), (3, "c05"), (4, "c38 c39"), (5, "c14"), (4, "c40"),
                  (5, "c03 c02 c27")),
        "P2": seq((1, "c07 c18 c01 c04"), (2, "c19 c10 c28 c25"), (3, "c21 c06 c36 c16"),
                  (5, "c24 c30 c33 c34"), (4, "c22 c15 c35 c29")),
    }
    tags = {"Game": "kingdoms-of-crusaders", "Date": "2026.11.21",
            "Event": "herald teaching records", "Players": "Ana; Ben", "First": "P1",
            "Variant": "points"}
    header = """The ranking of armies, steps 6 to 8 (ruling 5), early wins (ruling 6) and the
points variant (ruling 9).  Two players, one deck; the DeckOrder tag gives
the whole deck, top card first."""
    comments = {
        ("P2", "c16"): "Ben completes sector 3 first.  Ana's three cards there could "
                       "still become a better army (the cards she could still hold include "
                       "c40, which shows all five symbols), so nothing is won yet.",
        ("P1", "c37"): "c37 is one of the ten cards showing both banner and helmet "
                       "(c24, c30, c33, c34, c37, c38, c39, c40, c55, c56).  Ben holds "
                       "four of them for sector 5, Ana four for sector 4; c55 and c56 "
                       "stay in the deck.",
        ("P2", "c34"): "Ben's sector 5: regiments of banners and of helmets.  Ana's one "
                       "card there, c14, shows only lance and swords: any army she "
                       "completes there has at most regiments of swords and lances, "
                       "weaker than banners and helmets.",
        ("P1", "c40"): "Ana's sector 4: c37, c38, c39, c40.  Of the cards showing banner "
                       "and helmet only c55 and c56 are not on the table, too few for Ben "
                       "to gather regiments of both there.",
    }

    return write_record(out("levels-points-early.hgn"), tags, plan, comments, header=header)


DATE = "2026.11.21"


def random_plan(cards, players, seed):
    """A legal plan: the cards in a shuffled order dealt round the seats as
    placement queues, each into a random sector with room."""
    rnd = random.Random(seed)
    ids = [c for c, _ in cards]
    rnd.shuffle(ids)
    plan = {}
    for p in range(players):
        mine = ids[p::players][:25]
        room = [4] * 5
        steps = []
        for c in mine[:20]:
            k = rnd.choice([i for i in range(5) if room[i]])
            room[k] -= 1
            steps.append("%s:%d" % (c, k + 1))
        plan["P%d" % (p + 1)] = steps + ["%s:1" % c for c in mine[20:]]
    return plan


def hidden_draws():
    # Recorded by Ana: her own cards are named, Ben's deal and draws are '?'.
    tags = {"Game": "kingdoms-of-crusaders", "Date": DATE, "Event": "e-mail game",
            "Players": "Ana; Ben", "First": "P2"}
    header = """Hidden draws: the record as Ana kept it.  She names her own cards and
writes '?' for the cards Ben is dealt and draws.  There is no Seed and no
DeckOrder, so draws are free (any card not yet seen), and herald checks
what it can: Ana's draws must be cards not seen before, and her placements
cards she holds.  Each card Ben places could have been one of his hidden
cards, but herald cannot know: each such placement is reported once as
'unverified' (koc.hidden-card), which is not an error.  Once the deck is
empty and Ana's hand is all known, every card not yet seen must be in
Ben's hand, and his placements are certain again; the shipped deck of 56
never runs out in a game of two, so here all of them are unverified.  See
the sidecar hidden-draws.expect."""
    plan = random_plan(load_deck(), 2, "hidden")
    return write_record(out("hidden-draws.hgn"), tags, plan, header=header, hidden=("P2",))
SEEDED = """The Seed tag orders the deck (ruling 2): the cards in the deck file's
order are shuffled with herald's PRNG seeded by the tag's value, the card
at index 0 on top; the lot for the first player is the stream "<Seed>/first".
Every draw is checked against that order.  This game was played by
`herald gen` (uniformly random legal actions); the comments after each
territory won say which armies met there and which step of ruling 5 decided."""


def seed_two_markers():
    comments = {
        ("P2", "c35"): "Ben's c35 completes his army in sector 4, better than Ana's "
                       "there: territory 4 is his.  With c35 gone from his hand, his three "
                       "cards in sector 5 can no longer become a better army than Ana's "
                       "(ruling 6: he can still gather only his hand and the deck): "
                       "territory 5 is hers.  One placement, two territories, two winners: "
                       "the placement's sector first (territory 4, #2, to Ben), then the "
                       "others by number (territory 5, #3, to Ana), each claimed by its "
                       "winner (ruling 7).",
    }
    return from_gen("seed-two-markers.hgn", "t2markers", 2, "markers", 95,
                    "Two players, markers variant, a seeded deck.\n" + SEEDED, comments,
                    date=DATE)


def seed_two_points():
    comments = {
        ("P1", "c39"): "Ana draws c39 and places it in sector 4: her army there is "
                       "complete and beats Ben's (territory 4).  Her draw also took c39 "
                       "out of the deck, the last card with which Ben could still have "
                       "beaten her army in sector 3 (ruling 6; herald looks after each "
                       "placement, so the draw counts here): territory 3 is hers too.  "
                       "The placement's sector takes the next marker (#4), the others "
                       "follow by sector number (#5), ruling 7.",
    }
    return from_gen("seed-two-points.hgn", "t2points", 2, "points", 32,
                    "Two players, points variant, a seeded deck.\n" + SEEDED, comments,
                    date=DATE)


def seed_three_markers():
    return from_gen("seed-three-markers.hgn", "t3markers", 3, "markers", 0,
                    "Three players: two decks mixed (ruling 1: card ids end in a or b),\n"
                    "markers variant.\n" + SEEDED, date=DATE)


def seed_three_points():
    return from_gen("seed-three-points.hgn", "t3points", 3, "points", 7,
                    "Three players, two decks mixed, points variant.\n" + SEEDED, date=DATE)


def seed_four_markers():
    return from_gen("seed-four-markers.hgn", "t4markers", 4, "markers", 3,
                    "Four players, two decks mixed, markers variant.\n" + SEEDED, date=DATE)


def seed_four_points():
    return from_gen("seed-four-points.hgn", "t4points", 4, "points", 3,
                    "Four players, two decks mixed, points variant.\n" + SEEDED, date=DATE)


def early_win_plan():
    # Ruling 6: Ana's army in sector 1 is complete and only c55 could give
    # Ben a better one there; c55 is in Ana's hand, so the territory is won.
    # (herald before 2026-11 counted Ana's own hand as Ben's and refused
    # the claim.)  The rest of the game is random.
    rnd = random.Random("early-win-hand")
    fixed = {"P1": ["c56:1", "c43:1", "c22:1", "c34:1", "c55:2"],
             "P2": ["c09:1", "c07:1", "c40:1"]}
    used = set(x.split(":")[0] for v in fixed.values() for x in v)
    rest = [c for c, _ in load_deck() if c not in used]
    rnd.shuffle(rest)
    plan = {}
    for p, mine in (("P1", rest[:15]), ("P2", rest[15:32])):
        room = [4] * 5
        for x in fixed[p]:
            room[int(x.split(":")[1]) - 1] -= 1
        steps = list(fixed[p])
        for c in mine:
            k = rnd.choice([i for i in range(5) if room[i]])
            room[k] -= 1
            steps.append("%s:%d" % (c, k + 1))
        plan[p] = steps
    tags = {"Game": "kingdoms-of-crusaders", "Date": DATE, "Event": "herald rulings",
            "Players": "Ana; Ben", "First": "P1"}
    comments = {
        ("P1", "c34"): "Ana's fourth card in sector 1 (c56 c43 c22 c34).  Ben has "
                       "c09 c07 c40 there; of all the cards not on the table only c55 "
                       "(every symbol) would give him a better army, and c55 is in "
                       "Ana's hand, where Ben can never get it.  Territory 1 is Ana's now.",
    }
    return plan, tags, comments


def early_win_hand():
    plan, tags, comments = early_win_plan()
    header = """An early win that rests on a card in the claimant's own hand (ruling 6).
"If a player has completed his army in a territory and no other player can
gather a better army there, this player wins the territory immediately."
The cards another player could still gather are those it could still hold:
its hand, the deck, and cards whose place is unknown; never a card in
another player's hand.  The illegal record early-win-deck.hgn is the same
game with c55 left in the deck: there the claim is refused."""
    return write_record(out("early-win-hand.hgn"), tags, plan, comments, header=header)


def early_win_hidden():
    plan, tags, comments = early_win_plan()
    comments = {("P1", "c34"): "Ana's fourth card in sector 1.  Only c55 would give Ben a "
                               "better army there, and Ben has not seen it: it is in the "
                               "deck or among Ana's hidden cards."}
    header = """The game of early-win-hand.hgn as Ben kept it: Ana's deal and draws are
'?' (ruling 10).  Territory 1 is won if c55, the one card that would give
Ben a better army there, is in Ana's hand, and not if it is in the deck:
Ana's claim is taken as written and reported unverified (koc.hidden-win),
as are her placements of cards Ben has not seen (koc.hidden-card).  See
the sidecar early-win-hidden.expect.  The illegal record
early-win-hidden-refused.hgn gives c55 to Ben: then no assignment of Ana's
hidden cards wins the territory, and the same claim is an error."""
    return write_record(out("early-win-hidden.hgn"), tags, plan, comments, header=header,
                        hidden=("P1",))


def marker_tie(name, tie):
    src = generated("tie3", 3, "markers", 12)
    text = open(src).read()
    os.unlink(src)
    header = """Ruling 8, equal numbers of markers: "the players whose numbers on the
victory markers are greater will lose".  Three players; P3 holds markers
#3 and #4, P2 #1 and #5, P1 #2.  """
    if tie == "sum":
        text = text.replace('[Variant "markers"]', '[Variant "markers"]\n[MarkerTie "sum"]')
        text = text.replace('[Result "P3"]', '[Result "P2"]').replace('\n"P3"', '\n"P2"')
        header += """Read as sums (the tag MarkerTie "sum"), P3's 7 is
greater than P2's 6 and P3 loses: P2 wins.  marker-tie-highest.hgn is the
same game under herald's default reading."""
    else:
        header += """herald compares the numbers from the highest down
(the default, MarkerTie "highest"): P2 holds #5, the highest, and loses:
P3 wins.  marker-tie-sum.hgn is the same game read by sums."""
    f = tempfile.NamedTemporaryFile("w", suffix=".hgn", delete=False)
    f.write(text)
    f.close()
    try:
        return annotate(f.name, out(name), header + "\n" + SEEDED, date=DATE)
    finally:
        os.unlink(f.name)


def own_deck():
    deck_path = os.path.join(VALID, "own-deck.yaml")
    deck = load_deck(deck_path)
    tags = {"Game": "kingdoms-of-crusaders", "Date": DATE, "Event": "club night",
            "Players": "Ana; Ben", "First": "P1", "Variant": "points",
            "DeckFile": "own-deck.yaml"}
    header = """A deck of one's own.  The tag DeckFile names a deck file; a relative
name is looked for first in the record's own directory, then along the
data path (--data-dir, HERALD_DATA_PATH).  own-deck.yaml, beside this
record, is a 42-card printing whose ids are k01 ... k42; two cards have
aliases (k01 is also 'godfrey', k42 'holy-lance').  Names match without
regard to case, and seats may be written with the players' names:
`herald fmt` writes them back as 'P1: place k42 ...'."""
    path = out("own-deck.hgn")
    res = write_record(path, tags, random_plan(deck, 2, "own-deck"), header=header,
                       deck=deck)
    import re
    text = open(path).read()
    text = re.sub(r"P1: place k42 (\d)", r"Ana: place Holy-Lance \1", text, count=1)
    text = re.sub(r"P2: place k01 (\d)", r"Ben: place GODFREY \1", text, count=1)
    text = re.sub(r"P1: place k01 (\d)", r"ana: place godfrey \1", text, count=1)
    text = re.sub(r"P2: place k42 (\d)", r"ben: place holy-lance \1", text, count=1)
    open(path, "w").write(text)
    return res


def main():
    for make in [levels_two_players, levels_points_early, seed_two_markers, seed_two_points,
                 seed_three_markers, seed_three_points, seed_four_markers, seed_four_points,
                 hidden_draws, own_deck, early_win_hand, early_win_hidden,
                 lambda: marker_tie("marker-tie-highest.hgn", "highest"),
                 lambda: marker_tie("marker-tie-sum.hgn", "sum")]:
        res = make()
        print(make.__name__, res[0])


main()
