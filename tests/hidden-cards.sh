# hidden-cards.sh - hidden_names, shared by tests/views.test and
# tests/remote.test: the cards of a master record that a seat may not see,
# worked out from the record's notation, independently of herald's views.
# POSIX sh and awk; source it after tests/lib.sh.  Needs $HERALD.

# hidden_names GAME SEAT FILE VIEW: the card names of FILE's master record
# that SEAT may not see, one a line: the names written where the game hides
# them from SEAT, less the names written anywhere public and those SEAT
# sees.  Actions are read from the canonical text: a word ending in ':'
# starts one.  A master record leaves to its Seed what the seat itself
# draws (named only in its VIEW, in its own actions, which therefore count
# as seen) and, in Encrucijada, the cards turned up (`show b`, `reveal`,
# named in the VIEW, whose checked replay vouches for them) and the other
# cards that come to lie face up: the names in the pictures of `herald
# replay` (herald-encrucijada(7): hands, piles and hidden stacks as counts).
# In Crusader Kingdoms the Pending tag of an action held pending is public.
hidden_names() {
	if [ "$1" = encrucijada ]; then
		# the pictures only (indented), not the actions replayed
		"$HERALD" replay -q "$3" 2>/dev/null | grep '^ ' >"$3.public"
	else
		# an action held pending shows what it declares to every seat
		# (the event played, the army's card): its Pending tag
		sed -n 's/^\[Pending "[^:]*: \(.*\)"\]$/\1/p' "$3" >"$3.public"
	fi
	awk -v game="$1" -v me="$2" '
	function action(seat, w, n,   i, verb, list, victim, t, stated) {
		if (inview) {
			# its own actions, and what is turned up for all
			if (seat == me || w[1] == "show" || w[1] == "reveal" || w[1] == "force")
				for (i = 1; i <= n; i++) known[w[i]] = 1
			return
		}
		verb = w[1]
		if (game == "kingdoms-of-crusaders") {
			if (verb == "deal" || verb == "draw")
				for (i = 2; i <= n; i++) mark(w[i], seat)
			else
				for (i = 2; i <= n; i++) public[w[i]] = 1
		} else if (game == "encrucijada") {
			if (verb == "setup" || verb == "draw")
				for (i = 3; i <= n; i++) mark(w[i], seat)
			else if (verb == "put" && w[3] == "hidden")
				mark(w[2], seat)
			else if (verb == "take")
				mark(w[3], seat)
			else if (verb == "use") {
				# a card after a pile, before "=", is one an effect drew
				stated = 0
				for (i = 2; i <= n; i++) {
					if (w[i] == "=") stated = 1
					if (!stated && w[i - 1] ~ /^[0-9]+$/ && w[i] !~ /^[0-9]+$/ && w[i] != "/")
						mark(w[i], seat)
					else
						public[w[i]] = 1
				}
			} else
				for (i = 2; i <= n; i++) public[w[i]] = 1
		} else {
			# crusader-kingdoms: a list ends at a keyword or "/"
			list = ""; victim = seat
			for (i = 1; i <= n; i++) {
				t = w[i]
				if (t in keyword || t == "/") {
					list = ""
					if ((t == "draw" || t == "discard") && i == 1) list = "own"
					if (t == "with" && verb == "incursion") list = "own1"
					if (t == "draws") list = "own"
					if (t == "takes" && verb == "play") list = "both"
					if (t == "discards") list = "victim"
					if (t == "on" || (t == "incursion" && i == 1)) { victim = w[i + 1]; i++ }
					if (t == "attack" && i > 1) verb = "attack"
					continue
				}
				if (list == "own" || list == "own1") mark(t, seat)
				else if (list == "both") mark2(t, seat, victim)
				else if (list == "victim") mark(t, victim)
				else public[t] = 1
				if (list == "own1") list = ""
			}
		}
	}
	# mark NAME OWNER: written where only OWNER sees it.
	function mark(name, owner) {
		if (name == "?" || name ~ /^[0-9]+$/) return
		if (owner == me) known[name] = 1; else hidden[name] = 1
	}
	function mark2(name, a, b) {
		if (name == "?") return
		if (a == me || b == me) known[name] = 1; else hidden[name] = 1
	}
	BEGIN {
		split("draw discard incursion play attack reveal pass on at draws takes discards castle from with turn vs mod end army response discarded won lost bonus &", kw, " ")
		for (k in kw) keyword[kw[k]] = 1
	}
	FNR == 1 {
		if (seat != "") action(seat, words, nw)
		seat = ""; nw = 0
		inview = FILENAME == ARGV[2]
	}
	FILENAME == ARGV[1] { for (f = 1; f <= NF; f++) public[$f] = 1; next }
	/^\[/ || /^$/ || /^"/ || /^\*$/ { next }
	{
		for (f = 1; f <= NF; f++) {
			if ($f ~ /:$/) {
				if (seat != "") action(seat, words, nw)
				seat = substr($f, 1, length($f) - 1); nw = 0
			} else if ($f !~ /^[0-9]+\.$/) {
				words[++nw] = $f
			}
		}
	}
	END {
		if (seat != "") action(seat, words, nw)
		for (c in hidden)
			if (!(c in public) && !(c in known)) print c
	}' "$3.public" "$4" "$3"
}
