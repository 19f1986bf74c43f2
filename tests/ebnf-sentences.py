#!/usr/bin/env python3
"""ebnf-sentences.py GRAMMAR SAMPLES OUT - sentences from a game's action
grammar (grammar/<game>.ebnf), for a test that holds the game's reader to it.

GRAMMAR is read as ISO/IEC 14977 EBNF (the subset the grammars use: "=",
"|", ",", [ ], { }, ( ), "n *", terminals, special sequences ? ... ?, and
comments).  Its start is the production `action`; every production reachable
from it is expanded, every alternative and every optional part both ways
(a sample where the combinations are too many).  A meta-identifier the file
does not define (word, number, hidden: the body tokens of hgn.ebnf) is
replaced by sample values, and a special sequence by its example (the
quoted word after "e.g.").

SAMPLES holds, one per line ("#" starts a comment):
    KEY = VALUE...            sample values of a terminal
    ! KEY -> VALUE CODE       a near-miss: the terminal replaced by VALUE
                              must be refused with the diagnostic CODE
KEY is "PRODUCTION:TERMINAL" (the terminal inside the innermost production
defined in GRAMMAR, "card:word"), optionally after "PARENT>" (the production
around that one, "place>card:word"; "GRANDPARENT>PARENT>" and so on for the
productions around that, "show>stack ref>stack"); for a special sequence,
the name of the production it defines ("marker tag"); "first" is a
sentence's first token and "extra" a token added at its end.

Writes OUT.valid (one sentence a line), OUT.near (one near-miss a line) and
OUT.codes (the code each line of OUT.near must be refused with).  Exits 1
when a production defined in GRAMMAR is not reached from `action` or has no
sentence, or a terminal has no sample.
"""
import itertools
import random
import re
import sys

CAP = 120  # sentences per sequence, past which the combinations are sampled
NEAR_PER_PRODUCTION = 40  # sentences of each action given near-misses


def tokens(text):
    text = re.sub(r"\(\*.*?\*\)", " ", text, flags=re.S)
    spec = r'"[^"]*"|\'[^\']*\'|\?[^?]*\?|[A-Za-z][A-Za-z0-9 ]*[A-Za-z0-9]|[A-Za-z]|\d+|[=|,;\[\]{}()*]'
    pos = 0
    for m in re.finditer(r"\s*(" + spec + r")\s*", text):
        if m.start() != pos:
            sys.exit(f"ebnf-sentences: cannot read the grammar at {text[pos:pos + 30]!r}")
        pos = m.end()
        yield m.group(1)
    if text[pos:].strip():
        sys.exit(f"ebnf-sentences: cannot read the grammar at {text[pos:pos + 30]!r}")


class Parser:
    def __init__(self, text):
        self.t = list(tokens(text))
        self.i = 0

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, want=None):
        tok = self.peek()
        if want is not None and tok != want:
            sys.exit(f"ebnf-sentences: expected {want!r}, found {tok!r}")
        self.i += 1
        return tok

    def rules(self):
        out = {}
        while self.peek() is not None:
            name = " ".join(self.take().split())
            self.take("=")
            out[name] = self.alternatives()
            self.take(";")
        return out

    def alternatives(self):
        alts = [self.sequence()]
        while self.peek() == "|":
            self.take()
            alts.append(self.sequence())
        return ("alt", alts)

    def sequence(self):
        items = [self.factor()]
        while self.peek() == ",":
            self.take()
            items.append(self.factor())
        return ("seq", items)

    def factor(self):
        tok = self.peek()
        if tok is not None and tok.isdigit():
            n = int(self.take())
            self.take("*")
            return ("times", n, self.primary())
        return self.primary()

    def primary(self):
        tok = self.take()
        closing = {"[": "]", "{": "}", "(": ")"}
        if tok in closing:
            inner = self.alternatives()
            self.take(closing[tok])
            return {"[": ("opt", inner), "{": ("rep", inner), "(": ("group", inner)}[tok]
        if tok[0] in "\"'":
            return ("lit", tok[1:-1])
        if tok[0] == "?":
            m = re.search(r'e\.g\.\s*"([^"]+)"', tok)
            if not m:
                sys.exit(f"ebnf-sentences: the special sequence {tok} gives no example")
            return ("special", m.group(1))
        return ("ref", " ".join(tok.split()))


class Generator:
    def __init__(self, rules, samples):
        self.rules = rules
        self.samples = samples
        self.used = set()
        self.turn = {}

    def sample(self, key):
        values = self.samples.get(key)
        if not values:
            sys.exit(f"ebnf-sentences: no sample values for {key}")
        k = self.turn.get(key, 0)
        self.turn[key] = k + 1
        return values[k % len(values)]

    def expand(self, node, path):
        """A list of sentences; a sentence is a list of (token, path, key)."""
        kind = node[0]
        if kind == "alt":
            return [s for alt in node[1] for s in self.expand(alt, path)]
        if kind == "group":
            return self.expand(node[1], path)
        if kind == "seq":
            return combine([self.expand(item, path) for item in node[1]])
        if kind == "opt":
            return [[]] + self.expand(node[1], path)
        if kind == "rep":
            once = self.expand(node[1], path)
            return [[]] + once + [a + b for a, b in zip(once, once[1:] + once[:1])]
        if kind == "times":
            return combine([self.expand(node[2], path) for _ in range(node[1])])
        if kind == "lit":
            return [[(node[1], path, None)]]
        if kind == "special":
            return [[(node[1], path, path[-1])]]
        name = node[1]
        if name in self.rules:
            self.used.add(name)
            return self.expand(self.rules[name], path + [name])
        key = f"{path[-1]}:{name}"
        return [[(self.sample(key), path, key)]]


def combine(factors):
    """Every combination of one sentence from each factor, or, past CAP, a
    sample holding every sentence of every factor at least once."""
    total = 1
    for f in factors:
        total *= len(f)
    if total <= CAP:
        return [sum(c, []) for c in itertools.product(*factors)]
    rng = random.Random(total)
    widest = max(len(f) for f in factors)
    picks = [tuple(f[i % len(f)] for f in factors) for i in range(widest)]
    picks += [tuple(rng.choice(f) for f in factors) for _ in range(CAP - widest)]
    return [sum(c, []) for c in picks]


def read_samples(path):
    samples, near = {}, []
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip() if not line.lstrip().startswith("!") else line.strip()
        if not line:
            continue
        if line.startswith("!"):
            key, rest = line[1:].split("->")
            value, code = rest.split()
            near.append((key.strip(), value, code))
        else:
            key, values = line.split("=", 1)
            samples[key.strip()] = values.split()
    return samples, near


def matches(rule_key, path, key):
    *parents, own = rule_key.split(">")
    if own != key:
        return False
    return not parents or path[-1 - len(parents):-1] == parents


def main():
    grammar, samples_path, out = sys.argv[1:4]
    rules = Parser(open(grammar, encoding="utf-8").read()).rules()
    samples, near_rules = read_samples(samples_path)
    gen = Generator(rules, samples)
    if "action" not in rules:
        sys.exit("ebnf-sentences: the grammar has no production 'action'")
    gen.used.add("action")
    actions = [alt[1][0][1] for alt in rules["action"][1]]
    valid, near = [], []
    for name in actions:
        sentences = gen.expand(("ref", name), ["action"])
        if not sentences:
            sys.exit(f"ebnf-sentences: the production '{name}' gives no sentence")
        valid += [" ".join(tok for tok, _, _ in s) for s in sentences]
        step = max(1, len(sentences) // NEAR_PER_PRODUCTION)
        for s in sentences[::step]:
            words = [tok for tok, _, _ in s]
            for rule_key, value, code in near_rules:
                if rule_key == "first":
                    near.append((" ".join([value] + words[1:]), code))
                elif rule_key == "extra":
                    near.append((" ".join(words + [value]), code))
                for i, (_, path, key) in enumerate(s):
                    if key and matches(rule_key, path, key):
                        near.append((" ".join(words[:i] + [value] + words[i + 1:]), code))
    unused = sorted(set(rules) - gen.used)
    if unused:
        sys.exit(f"ebnf-sentences: productions not reached from 'action': {', '.join(unused)}")
    with open(out + ".valid", "w", encoding="utf-8") as f:
        f.writelines(s + "\n" for s in valid)
    with open(out + ".near", "w", encoding="utf-8") as f:
        f.writelines(s + "\n" for s, _ in near)
    with open(out + ".codes", "w", encoding="utf-8") as f:
        f.writelines(c + "\n" for _, c in near)


if __name__ == "__main__":
    main()
