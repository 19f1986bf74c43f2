"""kocsim.py - an independent model of The Kingdoms of Crusaders, used to
write the teaching records under records/kingdoms-of-crusaders/valid/.

It shares no code with the C engine: armies are ranked by a literal
reading of the rule sheet (lists of squad kinds, strongest first), and the
"no better army" proof is brute force over every multiset of the missing
cards, drawn from the cards the challenger could still hold (its hand and
the deck, never another player's hand: ruling 6).  A record it writes is then checked by `herald check`, so the two
implementations must agree on every territory, marker and result, and the
comments it writes (which armies met, which step of ruling 5 decided) come
from this model, not from the engine under test.

A plan gives, per seat, the cards that seat places, in order, each with its
sector ("c12:3").  Each seat's hand is a queue: the deal is its first five
planned cards, and each draw brings the next one, so the plan fixes the
DeckOrder tag.  Cards the plan never places fill the rest of the deck.
"""

import itertools
import os

import yaml

KINDS = ["lance", "bow", "swords", "helmet", "banner"]
SQUAD = {4: ("regiment", "regiments"), 3: ("battalion", "battalions"),
         2: ("company", "companies"), 1: ("single", "singles")}
LEVELS = [
    "all alike: the army completed first wins",
    "the number of regiments",
    "the power of the regiments",
    "the number of battalions",
    "the power of the battalions",
    "the number of companies",
    "the power of the companies",
    "the single symbols",
]

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.join(HERE, "..", "..", "..", "data", "kingdoms-of-crusaders", "deck.yaml")


def load_deck(path=DECK):
    with open(path) as f:
        doc = yaml.safe_load(f)
    return [(c["id"], frozenset(c["symbols"])) for c in doc["cards"]]


def cards_in_play(deck, players):
    """Ruling 1: two decks mixed for 3 and 4 players, ids suffixed a / b."""
    if players <= 2:
        return list(deck)
    return [(i + s, m) for s in "ab" for (i, m) in deck]


def counts(army):
    return {k: sum(k in card for card in army) for k in KINDS}


def squads(army, size):
    """Kinds forming squads of `size` symbols, strongest first."""
    c = counts(army)
    return [k for k in reversed(KINDS) if c[k] == size]


def power(kinds):
    return [KINDS.index(k) for k in kinds]


def rank_key(army):
    """The steps of ruling 5 in order, as a tuple Python compares."""
    key = []
    for size in (4, 3, 2):
        s = squads(army, size)
        key += [len(s), power(s)]
    key.append(power(squads(army, 1)))
    return tuple(key)


def level(a, b):
    """The step of ruling 5 that separates two armies (0: alike)."""
    ka, kb = rank_key(a), rank_key(b)
    for i, (x, y) in enumerate(zip(ka, kb)):
        if x != y:
            return i + 1
    return 0


def describe(army):
    parts = []
    for size in (4, 3, 2, 1):
        s = squads(army, size)
        if s:
            parts.append("%s %s" % (SQUAD[size][len(s) > 1], ", ".join(s)))
    return "; ".join(parts) if parts else "no symbols"


def kinds_text(kinds):
    return ", ".join(kinds) if kinds else "none"


def why(a, b):
    """Which step of ruling 5 separates army a (the better) from b, in words."""
    lv = level(a, b)
    if lv == 0:
        return "the armies are alike in every squad and single symbol."
    size = {1: 4, 2: 4, 3: 3, 4: 3, 5: 2, 6: 2, 7: 1}[lv]
    sa, sb = squads(a, size), squads(b, size)
    before = [SQUAD[sz][1] for sz in (4, 3, 2) if sz > size]
    alike = ""
    if before:
        alike = "the %s are alike; " % (" and ".join(before) if len(before) < 3 else
                                         "regiments, battalions and companies")
    if lv in (1, 3, 5):
        return "%s%d %s against %d: the number of %s decides (step %d)." % (
            alike, len(sa), SQUAD[size][len(sa) != 1], len(sb), SQUAD[size][1], lv)
    if lv == 7:
        return ("%sthe single symbols compared strongest first: %s against %s (step 7)." % (
            alike, kinds_text(sa), kinds_text(sb)))
    return ("%sboth have %d %s; compared strongest first, %s against %s: the power of "
            "the %s decides (step %d)." % (alike, len(sa), SQUAD[size][len(sa) != 1],
                                          kinds_text(sa), kinds_text(sb), SQUAD[size][1], lv))


def can_beat(have, pool, target):
    """Brute force: some multiset of the missing cards, drawn from the pool
    (a list of card symbol sets), gives an army ranking above `target`."""
    need = 4 - len(have)
    if need == 0:
        return rank_key(have) > target
    types = {}
    for m in pool:
        types[m] = types.get(m, 0) + 1
    order = sorted(types, key=lambda m: -len(m))
    for combo in itertools.combinations_with_replacement(order, need):
        if any(combo.count(m) > types[m] for m in set(combo)):
            continue
        if rank_key(list(have) + list(combo)) > target:
            return True
    return False


class Game:
    def __init__(self, players, first, variant="markers", deck=None, tie="highest"):
        self.n = len(players)
        self.tie_by_sum = tie == "sum"
        self.names = players
        self.first = first
        self.points = variant == "points"
        self.cards = dict(cards_in_play(deck or load_deck(), self.n))
        self.sectors = [[[] for _ in range(5)] for _ in range(self.n)]
        self.completed = [[None] * 5 for _ in range(self.n)]
        self.placed = set()
        self.hands = [set() for _ in range(self.n)]
        self.placements = 0
        self.winner = [None] * 5
        self.marker = [None] * 5
        self.markers = 0

    def army(self, p, k):
        return [self.cards[c] for c in self.sectors[p][k]]

    def better(self, p, q, k):
        """Ruling 5 with its last step: True when p's complete army beats q's."""
        kp, kq = rank_key(self.army(p, k)), rank_key(self.army(q, k))
        if kp != kq:
            return kp > kq
        return self.completed[p][k] < self.completed[q][k]

    def take(self, p, card):
        """A card dealt or drawn into p's hand."""
        assert card in self.cards and card not in self.placed, card
        assert all(card not in h for h in self.hands), card
        self.hands[p].add(card)

    def pool(self, q):
        """Ruling 6: the cards q could still hold - its hand and the deck,
        never a card in another player's hand."""
        others = set()
        for i, h in enumerate(self.hands):
            if i != q:
                others |= h
        return [m for c, m in self.cards.items() if c not in self.placed and c not in others]

    def decide(self, k):
        """Ruling 6: the winner of territory k now, or None; with a note."""
        done = [p for p in range(self.n) if len(self.sectors[p][k]) == 4]
        if not done:
            return None, None
        best = done[0]
        for p in done[1:]:
            if self.better(p, best, k):
                best = p
        target = rank_key(self.army(best, k))
        open_ = [q for q in range(self.n) if len(self.sectors[q][k]) < 4]
        for q in open_:
            if can_beat(self.army(q, k), self.pool(q), target):
                return None, None
        return best, open_

    def place(self, p, card, k):
        assert card in self.cards, card
        assert card not in self.placed, card
        assert len(self.sectors[p][k]) < 4, (p, card, k)
        assert card in self.hands[p], (p, card)
        self.hands[p].remove(card)
        self.sectors[p][k].append(card)
        self.placed.add(card)
        self.placements += 1
        if len(self.sectors[p][k]) == 4:
            self.completed[p][k] = self.placements
        won = []
        for s in [k] + [x for x in range(5) if x != k]:
            if self.winner[s] is not None:
                continue
            w, open_ = self.decide(s)
            if w is None:
                continue
            self.winner[s] = w
            self.marker[s] = self.markers + len(won) + 1
            won.append((s, w, open_))
        self.markers += len(won)
        return won

    def explain(self, s, w, open_):
        """True sentences on why territory s went to w."""
        seat = lambda p: "P%d" % (p + 1)
        lines = []
        for p in range(self.n):
            a = self.army(p, s)
            if len(a) == 4:
                lines.append("%s [%s]" % (seat(p), describe(a)))
            else:
                lines.append("%s %d card%s" % (seat(p), len(a), "" if len(a) == 1 else "s"))
        text = "Territory %d: %s. " % (s + 1, ", ".join(lines))
        rivals = [p for p in range(self.n) if p != w and len(self.sectors[p][s]) == 4]
        if open_:
            who = " or ".join(seat(q) for q in open_)
            held = ", ".join("%s %d" % (seat(q), len(self.pool(q))) for q in open_)
            text += ("%s wins it early (ruling 6): from the cards %s could still hold "
                     "(its hand and the deck: %s), %s cannot gather a better army there."
                     % (seat(w), who, held, who))
            if rivals:
                text += " "
        if rivals:
            r = rivals[0]
            for p in rivals[1:]:
                if self.better(p, r, s):
                    r = p
            text += "%s beats %s: %s" % (seat(w), seat(r), why(self.army(w, s), self.army(r, s)))
            if level(self.army(w, s), self.army(r, s)) == 0:
                text += " %s placed its fourth card first (step 8)." % seat(w)
        return text.strip()

    def result(self):
        seat = lambda p: "P%d" % (p + 1)
        won = [[self.marker[s] for s in range(5) if self.winner[s] == p] for p in range(self.n)]
        pts = [0] * self.n
        for s in range(5):
            done = [p for p in range(self.n) if len(self.sectors[p][s]) == 4]
            ranked = []
            for p in done:
                i = 0
                while i < len(ranked) and not self.better(p, ranked[i], s):
                    i += 1
                ranked.insert(i, p)
            assert ranked[0] == self.winner[s]
            for i, p in enumerate(ranked[:3]):
                pts[p] += 3 - i

        def order(p):
            # most markers; equal: the higher marker numbers lose (ruling 8),
            # with MarkerTie "sum" the greater sum first
            key = (len(won[p]),) + ((-sum(won[p]),) if self.tie_by_sum else ()) + \
                ([-m for m in sorted(won[p], reverse=True)],)
            return ((pts[p],) if self.points else ()) + key
        best = max(range(self.n), key=order)
        assert sum(order(p) == order(best) for p in range(self.n)) == 1
        res = seat(best)
        if self.points:
            res += " (" + ", ".join("%s %d" % (seat(p), pts[p]) for p in range(self.n)) + ")"
        return res, won, pts


def summary(g):
    """The end of the game in words: markers, points, the tie-breaks used."""
    res, won, pts = g.result()
    seat = lambda p: "P%d" % (p + 1)
    marks = lambda p: " ".join("#%d" % m for m in sorted(won[p])) or "none"
    text = "The fifth victory marker ends the game. Markers: %s." % "; ".join(
        "%s %s" % (seat(p), marks(p)) for p in range(g.n))
    cand = list(range(g.n))
    if g.points:
        per = []
        for s in range(5):
            done = [p for p in range(g.n) if len(g.sectors[p][s]) == 4]
            ranked = []
            for p in done:
                i = 0
                while i < len(ranked) and not g.better(p, ranked[i], s):
                    i += 1
                ranked.insert(i, p)
            per.append("territory %d: %s" % (s + 1, ", ".join(
                "%s %d" % (seat(p), 3 - i) for i, p in enumerate(ranked[:3]))))
        text += (" Points (ruling 9: 3 for a territory won, 2 for the second complete "
                 "army there, 1 for the third; an incomplete army scores nothing): %s; "
                 "in all %s." % ("; ".join(per), ", ".join(
                     "%s %d" % (seat(p), pts[p]) for p in range(g.n))))
        top = max(pts)
        cand = [p for p in cand if pts[p] == top]
        if len(cand) > 1:
            text += " %s tie on points, so the markers decide between them." % " and ".join(
                seat(p) for p in cand)
    most = max(len(won[p]) for p in cand)
    tied = [p for p in cand if len(won[p]) == most]
    if len(tied) > 1 and g.tie_by_sum and len(set(sum(won[p]) for p in tied)) == len(tied):
        text += (" %s have %d markers each; with MarkerTie \"sum\" the greater sum of "
                 "marker numbers loses (ruling 8): %s." % (
                     " and ".join(seat(p) for p in tied), most, ", ".join(
                         "%s's sum is %d" % (seat(p), sum(won[p])) for p in tied)))
    elif len(tied) > 1:
        text += (" %s have %d markers each: their numbers are compared from the highest "
                 "down, and the higher number loses (ruling 8): %s." % (
                     " and ".join(seat(p) for p in tied), most, ", ".join(
                         "%s's highest is #%d" % (seat(p), max(won[p])) for p in tied)))
    elif not g.points:
        text += " %s has the most markers." % seat(tied[0])
    text += " The winner: %s." % seat(int(res[1]) - 1)
    return text


def wrap_units(units, width=76):
    """Lines of move text, never breaking inside an action."""
    out, line = [], ""
    for u in units:
        if line and len(line) + 1 + len(u) > width:
            out.append(line)
            line = ""
        line = (line + " " + u) if line else u
    if line:
        out.append(line)
    return out


def wrap(text, width=76, indent=""):
    out, line = [], indent
    for word in text.split():
        if len(line) + len(word) + 1 > width and line.strip():
            out.append(line.rstrip())
            line = indent
        line += word + " "
    if line.strip():
        out.append(line.rstrip())
    return out


def write_record(path, tags, plan, comments=None, hidden=(), deck=None, header=None,
                 deck_order=True, final_comment=None):
    """Plays `plan` (seat -> ["card:sector", ...]) and writes the record.

    comments: {(seat, card): text} written after that seat places that card,
    or {("deal", seat): text} after a deal.  hidden: seats whose deal and
    draws the record shows as '?' (no DeckOrder then).  Returns the result.
    """
    comments = comments or {}
    players = [x.strip() for x in tags["Players"].split(";")]
    n = len(players)
    first = int(tags["First"][1:]) - 1
    g = Game(players, first, tags.get("Variant", "markers"), deck,
             tags.get("MarkerTie", "highest"))
    plans = []
    for p in range(n):
        steps = [s.split(":") for s in plan.get("P%d" % (p + 1), [])]
        plans.append([(c, int(k) - 1) for c, k in steps])
    seats = [(first + i) % n for i in range(n)]
    # The deck order the plan implies: each hand is a queue.
    queue = [[c for c, _ in plans[p]] for p in range(n)]
    planned = set(c for q in queue for c in q)
    order, taken = [], set()

    def next_card(p):
        q = queue[p]
        c = q.pop(0) if q else None
        if c is None or c in taken:
            raise SystemExit("plan for P%d runs out of cards" % (p + 1))
        taken.add(c)
        return c
    deal = {}
    for p in seats:
        deal[p] = [next_card(p) for _ in range(5)]
        order += deal[p]
        for c in deal[p]:
            g.take(p, c)
    total = len(g.cards)
    # Draws happen while the deck lasts; play proceeds seat by seat.
    events = []
    for p in seats:
        events.append(("deal", p, deal[p]))
    turn = 0
    deck_left = total - 5 * n
    step = [0] * n
    hand = {p: list(deal[p]) for p in range(n)}
    lines = []
    result = None
    while True:
        p = seats[turn % n]
        if deck_left > 0:
            if queue[p]:
                c = next_card(p)
            else:
                c = next(x for x in g.cards if x not in taken and x not in planned)
                taken.add(c)
            order.append(c)
            hand[p].append(c)
            g.take(p, c)
            deck_left -= 1
            events.append(("draw", p, c))
        if step[p] >= len(plans[p]):
            raise SystemExit("plan for P%d ends before the game (turn %d)" % (p + 1, turn))
        c, k = plans[p][step[p]]
        step[p] += 1
        assert c in hand[p], (p, c, hand[p])
        hand[p].remove(c)
        won = g.place(p, c, k)
        events.append(("place", p, (c, k)))
        for s, w, open_ in won:
            events.append(("win", w, (s, g.marker[s], g.explain(s, w, open_))))
        turn += 1
        events.append(("turn-end", p, None))
        if g.markers == 5:
            break
    for c in g.cards:
        if c not in taken:
            order.append(c)
            taken.add(c)
    res, won, pts = g.result()
    order_tags = dict(tags)
    if deck_order and not hidden:
        order_tags["DeckOrder"] = " ".join(order)
    order_tags["Result"] = res
    render(path, order_tags, events, n, g, comments, hidden, header,
           final_comment(res, won, pts) if final_comment else summary(g))
    return res, won, pts, g


TAG_ORDER = ["Game", "Date", "Event", "Players", "First", "Variant", "MarkerTie", "Seed",
             "DeckFile", "DeckOrder", "Result"]


def render(path, tags, events, n, g, comments=None, hidden=(), header=None, final=None):
    """Writes the record: tags, then the events with move numbers (rounds)."""
    comments = comments or {}
    out = []
    if header:
        for line in header.strip("\n").split("\n"):
            out.append("; " + line if line else ";")
    for name in TAG_ORDER:
        if name in tags:
            out.append('[%s "%s"]' % (name, tags[name]))
    for name, value in tags.items():
        if name not in TAG_ORDER:
            out.append('[%s "%s"]' % (name, value))
    out.append("")
    rnd, turns = 1, 0
    cur = ["1."]

    def flush_comment(text):
        nonlocal cur
        if cur:
            out.extend(wrap_units(cur))
        cur = []
        out.extend(wrap("{" + text + "}"))

    for kind, p, x in events:
        seat = "P%d" % (p + 1)
        if kind == "deal":
            cards = ["?"] * 5 if seat in hidden else x
            cur.append("%s: deal %s" % (seat, " ".join(cards)))
            if ("deal", seat) in comments:
                flush_comment(comments[("deal", seat)])
        elif kind == "draw":
            cur.append("%s: draw %s" % (seat, "?" if seat in hidden else x))
        elif kind == "place":
            c, k = x
            cur.append("%s: place %s %d" % (seat, c, k + 1))
            if (seat, c) in comments:
                flush_comment(comments[(seat, c)])
        elif kind == "win":
            s, m, why_text = x
            cur.append("%s: win %d #%d" % (seat, s + 1, m))
            flush_comment(why_text)
        elif kind == "turn-end":
            turns += 1
            if turns % n == 0:
                if cur:
                    out.extend(wrap_units(cur))
                rnd += 1
                cur = ["%d." % rnd]
    if cur and cur != ["%d." % rnd]:
        out.extend(wrap_units(cur))
    if final:
        out.extend(wrap("{" + final + "}"))
    out.append('"%s"' % tags["Result"])
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def annotate(src, dst, header=None, comments=None, deck=None, date=None):
    """Rewrites a record `herald gen` wrote, with kocsim's explanation after
    each territory won (and a check that kocsim agrees with it)."""
    import re
    text = open(src).read()
    tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', text, re.M))
    if date:
        tags["Date"] = date
    players = [x.strip() for x in tags["Players"].split(";")]
    n = len(players)
    g = Game(players, int(tags["First"][1:]) - 1, tags.get("Variant", "markers"), deck,
             tags.get("MarkerTie", "highest"))
    moves = text[text.index("\n\n"):]
    events = []
    acts = re.findall(r"(P\d): (deal|draw|place|win) ([^\n]*?)(?= P\d:| \d+\.|\n|$)", moves)
    pending = []
    for seat, verb, rest in acts:
        p = int(seat[1:]) - 1
        words = rest.split()
        if verb == "deal":
            events.append(("deal", p, words))
            for c in words:
                g.take(p, c)
        elif verb == "draw":
            events.append(("draw", p, words[0]))
            g.take(p, words[0])
        elif verb == "place":
            if events and events[-1][0] == "place" or pending:
                raise SystemExit("unexpected placement order")
            won = g.place(p, words[0], int(words[1]) - 1)
            events.append(("place", p, (words[0], int(words[1]) - 1)))
            pending = [(s, w, o) for s, w, o in won]
            if not pending:
                events.append(("turn-end", p, None))
        elif verb == "win":
            k, m = int(words[0]) - 1, int(words[1].lstrip("#"))
            match = [x for x in pending if x[0] == k]
            assert match and match[0][1] == p and g.marker[k] == m, (seat, words)
            s_, w, o = match[0]
            pending.remove(match[0])
            events.append(("win", p, (k, m, g.explain(k, w, o))))
            if not pending:
                events.append(("turn-end", p, None))
    res, won, pts = g.result()
    assert res == tags["Result"], (res, tags["Result"])
    render(dst, tags, events, n, g, comments, (), header, summary(g))
    return res, won, pts, g
