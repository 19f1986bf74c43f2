#!/usr/bin/env python3
"""judge-mail.py - the players of tests/judge.test: real e-mails, composed
with Python's email package, fed one by one to `herald judge`, whose
replies are read back from its Maildir and answered as the players would.

  judge-mail.py play GAME SEATS SEED END   a whole game by mail; END is
      how it ends when the rules have not ended it after MAX_MOVES moves:
      resign, draw, or rules (no cap).  Prints the game's id.
  judge-mail.py compose KIND FROM SUBJECT [BODY [MESSAGE-ID]]   one message
      on stdout: plain, big (a 50 MB attachment), html (no plain text),
      bomb (MIME parts nested 1000 deep), charset (an unknown charset),
      auto (an auto-reply)
  judge-mail.py replies   the new replies (To, Subject, text), then moved
      to cur/
  judge-mail.py hidden RECORD SEAT   fails when a message to SEAT names a
      card of the master RECORD that SEAT's view does not

Environment: HERALD, JUDGE_DIR (the games), JUDGE_OUT (the replies'
Maildir), JUDGE_NOW (the time of the first message), MAX_MOVES.
"""
import email
import email.policy
import os
import random
import re
import subprocess
import sys
from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import formataddr, formatdate

HERALD = os.environ.get("HERALD", "herald")
GAMES = os.environ.get("JUDGE_DIR", "games")
OUT = os.environ.get("JUDGE_OUT", "out")
JUDGE = "judge@club.example"
NAMES = ["José Peña", "Ana Núñez", "Björn Ek", "Zoë Adams", "Ramón Ibáñez", "Li Wei"]
state = {"now": int(os.environ.get("JUDGE_NOW", "1800000000")), "n": 0}


def address(i):
    return "player%d@club.example" % (i + 1)


def judge(raw, expect=0):
    """Feeds one message to herald judge; returns its exit status."""
    state["now"] += 60
    state["n"] += 1
    r = subprocess.run([HERALD, "judge", "--dir", GAMES, "--out", OUT, "--from", JUDGE,
                        "--now", str(state["now"])], input=raw, capture_output=True)
    if expect is not None and r.returncode != expect:
        sys.stderr.write(r.stderr.decode("utf-8", "replace"))
        raise SystemExit("herald judge exited %d" % r.returncode)
    return r.returncode


def replies():
    """The new replies, oldest first, moved to cur/ once read."""
    new = os.path.join(OUT, "new")
    got = []
    if not os.path.isdir(new):
        return got
    for name in sorted(os.listdir(new), key=lambda n: os.stat(os.path.join(new, n)).st_mtime_ns):
        path = os.path.join(new, name)
        with open(path, "rb") as fp:
            msg = email.message_from_binary_file(fp, policy=email.policy.default)
        os.rename(path, os.path.join(OUT, "cur", name + ":2,S"))
        got.append(msg)
    return got


def text_of(msg):
    return msg.get_body(preferencelist=("plain",)).get_content()


def all_text(msg):
    """Every text part (the report and the attached view), decoded."""
    return "\n".join(p.get_content() for p in msg.walk() if p.get_content_maintype() == "text")


def compose(sender_index, subject, body, style, answered=None):
    """A reply as a player's mail program would write it: style picks the
    charset, the transfer encoding, the MIME structure and the quoting."""
    quoted = ""
    if answered is not None:
        original = text_of(answered)
        if style % 5 == 3:
            # Outlook: the original below, unquoted
            quoted = ("\n-----Original Message-----\nFrom: herald judge <%s>\n\n%s" %
                      (JUDGE, original))
        elif style % 5 == 1:
            quoted = "\n\nEl %s, herald judge escribió:\n%s" % (
                answered["Date"], "".join("> " + l + "\n" for l in original.splitlines()))
        else:
            quoted = "\n\nOn %s, herald judge <%s> wrote:\n%s" % (
                answered["Date"], JUDGE, "".join("> " + l + "\n" for l in original.splitlines()))
    signature = "\n-- \n%s\nClub de juegos, caballería ligera\n" % NAMES[sender_index % len(NAMES)]
    if style % 5 == 1:
        text = body + "\n" + signature + quoted
    else:
        text = body + "\n" + quoted + signature
    if style % 5 == 2:
        # multipart/alternative, base64 UTF-8 text beside an HTML part
        msg = MIMEMultipart("alternative")
        plain = MIMEText(text, "plain", "utf-8")
        msg.attach(plain)
        msg.attach(MIMEText("<p>%s</p>" % body.replace("\n", "<br>"), "html", "utf-8"))
    else:
        msg = EmailMessage()
        if style % 5 == 1:
            msg.set_content(text, charset="iso-8859-1", cte="quoted-printable")
        elif style % 5 == 4:
            msg.set_content(text, charset="utf-8", cte="8bit")
        else:
            msg.set_content(text, charset="utf-8", cte="quoted-printable")
    msg["From"] = formataddr((NAMES[sender_index % len(NAMES)], address(sender_index)))
    msg["To"] = JUDGE
    msg["Subject"] = subject
    msg["Date"] = formatdate(state["now"])
    msg["Message-ID"] = "<m%d.%d@club.example>" % (state["n"], random.randrange(1 << 30))
    if answered is not None and answered["Message-ID"]:
        msg["In-Reply-To"] = answered["Message-ID"]
        msg["References"] = answered["Message-ID"]
    return msg.as_bytes()


LEGAL = re.compile(r"^Your legal actions \(\d+\):$")


def legal_actions(text, every=False):
    lines = text.splitlines()
    for i, l in enumerate(lines):
        if LEGAL.match(l):
            acts = []
            for a in lines[i + 1:]:
                if not a.startswith("  ") or a.startswith("  ... and "):
                    break
                acts.append(a.strip())
            named = [a for a in acts if not re.search(r"(^| )\?( |$)", a)]
            return acts if every else (named or acts)
    return []


def play(game, seats, seed, end):
    rng = random.Random(seed)
    max_moves = int(os.environ.get("MAX_MOVES", "300"))
    everyone = " ".join(address(i) for i in range(seats))
    judge(compose(0, "a new game", "new %s %s entropy=olivo deadline=48" % (game, everyone), 0))
    latest = {}
    game_id = None
    for m in replies():
        latest[m["To"]] = m
        game_id = re.search(r"\[([a-z0-9-]+)\]", m["Subject"]).group(1)
    if not game_id or len(latest) != seats:
        raise SystemExit("no new game: %s" % [text_of(m) for m in latest.values()])
    for i in range(1, seats):
        m = latest[address(i)]
        judge(compose(i, "Re: " + m["Subject"], "entropy palabra%d" % i, i, m))
        for r in replies():
            latest[r["To"]] = r
    moves = 0
    ending_sent = False
    while True:
        texts = {a: text_of(m) for a, m in latest.items()}
        if any("The game is over:" in t for t in texts.values()):
            break
        choices = [(i, legal_actions(texts[address(i)])) for i in range(seats)]
        choices = [(i, acts) for i, acts in choices if acts]
        if not choices:
            raise SystemExit("nobody may move:\n" + "\n".join(texts.values()))
        i, acts = choices[rng.randrange(len(choices))]
        body = rng.choice(acts)
        if moves >= max_moves and end != "rules" and not ending_sent:
            ending_sent = True
            if end == "resign":
                body = "resign"
            else:
                body = "offer draw"
        if ending_sent and end == "draw" and body != "offer draw":
            # every other seat accepts
            for k in range(seats):
                m = latest[address(k)]
                if "A draw offer stands" in text_of(m):
                    judge(compose(k, "Re: " + m["Subject"], "accept", moves + k, m))
                    for r in replies():
                        latest[r["To"]] = r
            continue
        if moves % 11 == 3 and not ending_sent:
            body = "view\n" + body
        m = latest[address(i)]
        subject = ("Re: " + m["Subject"] + " – mi jugada, señor") if moves % 3 == 0 else "Re: " + m["Subject"]
        judge(compose(i, subject, body, moves, m))
        got = replies()
        for r in got:
            latest[r["To"]] = r
        told = text_of(latest[address(i)])
        if "Not done" in told:
            raise SystemExit("refused: %s\n%s" % (body, told))
        moves += 1
        if moves > 5000:
            raise SystemExit("no end after 5000 moves")
    print(game_id)


def actions(hgn):
    """The actions of a record's main line, each as its list of words."""
    body = hgn.split("\n\n", 1)[1] if "\n\n" in hgn else ""
    acts = []
    for w in re.split(r"\s+", body):
        if not w or re.match(r"^\d+\.$", w) or w in ("*", "#"):
            continue
        if w.endswith(":"):
            acts.append([])
        elif acts:
            acts[-1].append(w)
    return acts


def hidden(record, seat):
    """Each report to SEAT came with SEAT's view of k actions; the master
    record's first k actions were the game then (actions are only ever
    appended).  The words of those actions that the view does not hold
    were hidden from SEAT: none may be in the report's text."""
    with open(record, encoding="utf-8") as fp:
        text = fp.read()
    master = actions(text)
    game_id = os.path.basename(os.path.dirname(os.path.abspath(record)))
    players = dict(l.split("\t")[:2] for l in open(os.path.join(os.path.dirname(record), "players")))
    to = players[seat]
    # The names of cards are the ids of the game's data files; an action's
    # first word is the notation's (a Crusader Kingdoms card may share its
    # name with a verb, as "incursion" does), not a card.
    game = re.search(r'^\[Game "([^"]*)"\]', text, re.M).group(1)
    cards = set()
    data = os.path.join(os.environ.get("HERALD_DATA_PATH", "data"), game)
    for root, _, files in os.walk(data):
        for f in files:
            if f.endswith(".yaml"):
                with open(os.path.join(root, f), encoding="utf-8") as fp:
                    cards |= set(re.findall(r"\bid: *([a-z0-9-]+)", fp.read()))
    verbs = set(a[0] for a in master if a)
    checked = names = 0
    for where in ("cur", "new"):
        d = os.path.join(OUT, where)
        for name in os.listdir(d):
            with open(os.path.join(d, name), "rb") as fp:
                msg = email.message_from_binary_file(fp, policy=email.policy.default)
            if msg["To"] != to or "[%s]" % game_id not in msg["Subject"]:
                continue
            views = [p for p in msg.walk() if p.get_filename()]
            if not views:
                continue
            if "[SeedReveal " in views[0].get_content():
                continue    # the game is over and its seed public: nothing is hidden
            view = actions(views[0].get_content())
            seen = set(w for a in view for w in a)
            # an action held pending shows every seat what it declares (the
            # event played, the scripted army's card): its Pending tag is
            # public, as tests/hidden-cards.sh counts it
            for declared in re.findall(r'^\[Pending "[^:"]*: ([^"]*)"\]$', views[0].get_content(), re.M):
                seen |= set(declared.split())
            # the report, and the tags of the attached view (a tag such as
            # a deck order would name every card)
            report = text_of(msg) + "\n" + views[0].get_content().split("\n\n", 1)[0]
            own_verbs = set(a.split()[0] for a in legal_actions(report, True) if a.split())
            secret = (set(w for a in master[:len(view)] for w in a) & cards) - seen - verbs - own_verbs
            checked += 1
            names += len(secret)
            for card in secret:
                if re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(card), report):
                    line = [l for l in report.splitlines()
                            if re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(card), l)]
                    raise SystemExit("%s: a message to %s names %s, hidden from it: %s" %
                                     (name, seat, card, line[0]))
    if not checked:
        raise SystemExit("no report to %s" % seat)
    print("%d reports to %s checked for %d hidden names" % (checked, seat, names))


def compose_kind(kind, sender, subject, body, message_id):
    head = "From: %s\nTo: %s\nSubject: %s\nDate: %s\nMessage-ID: <%s>\nMIME-Version: 1.0\n" % (
        sender, JUDGE, subject, formatdate(state["now"]), message_id)
    if kind == "bomb":
        depth = 1000
        parts = ["Content-Type: multipart/mixed; boundary=\"b0\"\n\n--b0"]
        for i in range(1, depth):
            parts.append("Content-Type: multipart/mixed; boundary=\"b%d\"\n\n--b%d" % (i, i))
        parts.append("Content-Type: text/plain\n\n%s" % body)
        for i in reversed(range(depth)):
            parts.append("--b%d--" % i)
        return (head + "\n".join(parts) + "\n").encode()
    if kind == "charset":
        return (head + "Content-Type: text/plain; charset=\"x-no-such-charset\"\n"
                "Content-Transfer-Encoding: 8bit\n\n").encode() + body.encode("latin-1") + b"\xff\xfe\n"
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = JUDGE
    msg["Subject"] = subject
    msg["Date"] = formatdate(state["now"])
    msg["Message-ID"] = "<%s>" % message_id
    if kind == "html":
        msg.set_content("<p>%s</p>" % body, subtype="html")
    else:
        msg.set_content(body + "\n")
    if kind == "big":
        msg.add_attachment(bytes(range(256)) * (50 * 4096),
                           maintype="application", subtype="octet-stream", filename="scan.bin")
    if kind == "auto":
        msg["Auto-Submitted"] = "auto-replied"
    return msg.as_bytes()


def show_replies():
    for m in replies():
        print("To: %s\nSubject: %s\nSize: %d\n%s\n----" % (m["To"], m["Subject"], len(m.as_bytes()), all_text(m)))


def main():
    cmd = sys.argv[1]
    if cmd == "compose":
        a = sys.argv[2:] + [""] * 5
        mid = a[4] or "h%d@club.example" % random.randrange(1 << 30)
        sys.stdout.buffer.write(compose_kind(a[0], a[1], a[2], a[3].replace("\\n", "\n"), mid))
        return
    if cmd == "replies":
        show_replies()
        return
    if cmd == "play":
        play(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    elif cmd == "hidden":
        hidden(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit("unknown command " + cmd)


if __name__ == "__main__":
    main()
