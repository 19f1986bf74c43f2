/* engine.c - the rules of The Kingdoms of Crusaders: the deal, the turn
 * sequence, territories won, the end and the winner, and the legal actions.
 * Each rule's function names its section of the rule sheet; the numbered
 * rulings are those of herald-kingdoms-of-crusaders(7). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "koc.h"

static const char *const sheet_turn = "'Turn sequence'";
static const char *const sheet_armies = "'Armies and domination in territories'";

/* ------------------------------------------------------------------ helpers */
static size_t deck_left(const hg_state *s)
{
	return s->cards->n - s->dealt;
}

static unsigned next_seat(const hg_state *s, unsigned seat)
{
	/* 'Turn sequence': the turn passes to the left, which is the order of
	 * the seats (ruling 2). */
	return (seat + 1) % s->nplayers;
}

static const char *card_id(const hg_state *s, int c)
{
	return c == KOC_HIDDEN ? "?" : s->cards->ids[c];
}

hg_koc_key hg_koc_sector_key(const hg_state *s, unsigned seat, unsigned sector)
{
	return s->key[seat][sector];
}

/* 'Turn sequence', step 2: the card joins the sector's army.  The army's
 * counts of kinds and its key (ruling 5) are brought up to date here, once,
 * rather than recomputed at every comparison. */
static void add_to_sector(hg_state *s, unsigned seat, unsigned sector, int c)
{
	unsigned mask = s->cards->mask[c];
	unsigned char *counts = s->counts[seat][sector];
	for (unsigned k = 0; k < KOC_NKINDS; k++)
		counts[k] = (unsigned char)(counts[k] + ((mask >> k) & 1u));
	s->key[seat][sector] = hg_koc_key_of(counts);
	s->sector[seat][sector][s->nsector[seat][sector]++] = (uint16_t)c;
}

static int complete(const hg_state *s, unsigned seat, unsigned sector)
{
	return s->nsector[seat][sector] == KOC_ARMY;
}

/* Ruling 5: of two complete armies in a territory, > 0 when a's is better. */
static int army_cmp(const hg_state *s, unsigned a, unsigned b, unsigned sector)
{
	return hg_koc_army_cmp(s->key[a][sector], s->completed[a][sector],
			       s->key[b][sector], s->completed[b][sector]);
}

/* A complete army never changes: the best one in a sector changes only
 * when another is completed there (ruling 5). */
static void note_complete(hg_state *s, unsigned seat, unsigned sector)
{
	int best = s->best[sector];
	if (best < 0 || army_cmp(s, seat, (unsigned)best, sector) > 0)
		s->best[sector] = (int)seat;
	if (s->winner[sector] < 0)
		s->decidable |= 1u << sector;
}

/* The cards a hand is known to hold, and how many more are hidden. */
static void describe_hand(const hg_state *s, unsigned seat, hg_buf *out)
{
	int any = 0;
	for (size_t c = 0; c < s->cards->n; c++)
		if (s->loc[c] == KOC_IN_HAND + seat) {
			hg_buf_printf(out, "%s%s", any ? ", " : "", s->cards->ids[c]);
			any = 1;
		}
	if (s->hidden[seat])
		hg_buf_printf(out, "%s%u hidden card%s", any ? " and " : "", s->hidden[seat],
			      s->hidden[seat] == 1 ? "" : "s");
	else if (!any)
		hg_buf_puts(out, "no card");
}

/* Where a card is: "'c13' is in P2's hand", "... on the table, in P1's
 * sector 3", one sentence each for the translators. */
static void note_place(hg_diag *dg, const hg_state *s, int c)
{
	const char *id = s->cards->ids[c];
	unsigned char loc = s->loc[c];
	if (loc >= KOC_IN_HAND) {
		hg_diag_note(dg, "'%s' is in %s's hand", id, hg_koc_seat_name(loc - KOC_IN_HAND));
		return;
	}
	if (loc == KOC_TABLE) {
		for (unsigned p = 0; p < s->nplayers; p++)
			for (unsigned k = 0; k < KOC_SECTORS; k++)
				for (unsigned i = 0; i < s->nsector[p][k]; i++)
					if (s->sector[p][k][i] == c) {
						hg_diag_note(dg, "'%s' is on the table, in %s's sector %u",
							     id, hg_koc_seat_name(p), k + 1);
						return;
					}
	}
	hg_diag_note(dg, s->order_known ? "'%s' is still in the deck" : N_("'%s' is not yet seen"), id);
}

static void note_hand(hg_diag *dg, const hg_state *s, unsigned seat)
{
	hg_buf b;
	hg_buf_init(&b);
	describe_hand(s, seat, &b);
	hg_diag_note(dg, "%s holds %s", hg_koc_seat_name(seat), b.data);
	hg_buf_free(&b);
}

/* The next n cards of the deck as an action names them: their ids when
 * the Seed or DeckOrder fixes the order, else "C" for each. */
static void next_cards(const hg_state *s, size_t n, hg_buf *b)
{
	for (size_t k = 0; k < n; k++) {
		int known = s->order_known && s->dealt + k < s->cards->n;
		hg_buf_printf(b, "%s%s", k ? " " : "",
			      known ? s->cards->ids[s->order[s->dealt + k]] : "C");
	}
}

/* What the seat to move has to do now, for notes. */
static void note_duty(hg_diag *dg, const hg_state *s)
{
	const char *who = hg_koc_seat_name(s->to_move);
	hg_buf cards;
	hg_buf_init(&cards);
	switch (s->phase) {
	case KOC_PHASE_DEAL:
		next_cards(s, 5, &cards);
		hg_diag_note(dg, "%s is to be dealt five cards: '%s: deal %s'", who, who, cards.data);
		break;
	case KOC_PHASE_DRAW:
		next_cards(s, 1, &cards);
		hg_diag_note(dg, "%s is to draw the top card of the deck (%zu left): '%s: draw %s'",
			     who, deck_left(s), who, cards.data);
		break;
	case KOC_PHASE_PLACE:
		hg_diag_note(dg, "%s is to place a card: '%s: place C SECTOR'", who, who);
		break;
	default:
		break;
	}
	hg_buf_free(&cards);
}

/* ------------------------------------------------------------------ the end */
/* 'End of a game and a Winner', ruling 8: with equal numbers of markers,
 * the numbers are compared from the highest down, and the player holding
 * the higher number at the first difference loses; with MarkerTie "sum"
 * the greater sum of marker numbers loses first.  > 0 when a ranks above. */
static int marker_cmp(const hg_state *s, unsigned a, unsigned b)
{
	unsigned na = 0, nb = 0, suma = 0, sumb = 0;
	for (unsigned k = 0; k < KOC_SECTORS; k++) {
		na += s->winner[k] == (int)a;
		nb += s->winner[k] == (int)b;
		suma += s->winner[k] == (int)a ? s->marker[k] : 0;
		sumb += s->winner[k] == (int)b ? s->marker[k] : 0;
	}
	if (na != nb)
		return na > nb ? 1 : -1;
	/* Equal sums ({1,4} and {2,3}) fall back to the highest first. */
	if (s->tie_by_sum && suma != sumb)
		return suma < sumb ? 1 : -1;
	for (unsigned m = KOC_SECTORS; m >= 1; m--) {
		int ha = 0, hb = 0;
		for (unsigned k = 0; k < KOC_SECTORS; k++)
			if (s->marker[k] == m) {
				ha = s->winner[k] == (int)a;
				hb = s->winner[k] == (int)b;
			}
		if (ha != hb)
			return ha ? -1 : 1;
	}
	return 0;
}

/* 'Winner by the points', ruling 9: 3 points for a territory won, 2 for the
 * second army there, 1 for the third; only complete armies rank. */
void hg_koc_score_points(const hg_state *s, unsigned points[KOC_MAX_PLAYERS])
{
	memset(points, 0, KOC_MAX_PLAYERS * sizeof *points);
	for (unsigned k = 0; k < KOC_SECTORS; k++) {
		unsigned rank[KOC_MAX_PLAYERS], n = 0;
		for (unsigned p = 0; p < s->nplayers; p++)
			if (complete(s, p, k)) {
				unsigned i = n++;
				while (i > 0 && army_cmp(s, p, rank[i - 1], k) > 0) {
					rank[i] = rank[i - 1];
					i--;
				}
				rank[i] = p;
			}
		/* The winner's army is the best complete one: the proof of an
		 * early win rules out any later army beating it (ruling 6). */
		for (unsigned i = 0; i < n && i < 3; i++)
			points[rank[i]] += 3 - i;
	}
}

/* The last victory marker is placed: the game is over. */
static void end_game(hg_state *s)
{
	unsigned points[KOC_MAX_PLAYERS];
	hg_koc_score_points(s, points);
	unsigned best = 0;
	for (unsigned p = 1; p < s->nplayers; p++) {
		int c = s->points && points[p] != points[best] ? (points[p] > points[best] ? 1 : -1)
							       : marker_cmp(s, p, best);
		if (c > 0)
			best = p;
	}
	/* A tie through every step would need two players with no marker at
	 * all sharing the lead, which five markers among four players rule
	 * out (ruling 9): the ranking always has one winner. */
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_puts(&b, hg_koc_seat_name(best));
	if (s->points) {
		hg_buf_puts(&b, " (");
		for (unsigned p = 0; p < s->nplayers; p++)
			hg_buf_printf(&b, "%s%s %u", p ? ", " : "", hg_koc_seat_name(p), points[p]);
		hg_buf_putc(&b, ')');
	}
	free(s->result);
	/* short of memory, no result: apply reports HG_ENOMEM */
	s->result = hg_buf_failed(&b) ? NULL : hg_buf_steal(&b);
	hg_buf_free(&b);
	s->phase = KOC_PHASE_OVER;
}

/* ------------------------------------------------------------------ territories */
/* Ruling 7: the marker the i-th territory the last placement decided takes:
 * the next after those placed before it and after the territories before
 * it in ruling 7's order that are claimed or must be. */
static unsigned decided_marker(const hg_state *s, unsigned i)
{
	unsigned m = s->claim_base + 1;
	for (unsigned j = 0; j < i; j++)
		m += s->decided[j].certain || s->decided[j].claimed;
	return m;
}

/* The claims still due (the territories won in every assignment of the
 * hidden cards), with their marker numbers. */
static void renumber_pending(hg_state *s)
{
	s->npending = 0;
	for (unsigned i = 0; i < s->ndecided; i++) {
		if (!s->decided[i].certain || s->decided[i].claimed)
			continue;
		hg_koc_claim *c = &s->pending[s->npending++];
		c->sector = s->decided[i].sector;
		c->seat = s->decided[i].seat;
		c->marker = decided_marker(s, i);
		s->marker[c->sector] = c->marker;
	}
}

/* Ruling 7: after a placement, every territory it decides is won, the
 * sector the card went to first, then the others by number; each takes the
 * next victory marker, and the record must say so before anything else.
 * A territory won in only some assignments of the hidden cards (ruling 10)
 * is listed too: its claim may follow, unverified. */
static void decide_territories(hg_state *s, unsigned placed)
{
	s->ndecided = 0;
	s->claim_base = s->markers;
	for (unsigned i = 0; s->decidable && i < KOC_SECTORS; i++) {
		/* placed, then 0 .. placed - 1, then placed + 1 .. */
		unsigned k = i == 0 ? placed : i <= placed ? i - 1 : i;
		if (!((s->decidable >> k) & 1u))
			continue;
		int assumed;
		int v = hg_koc_territory_verdict(s, k, &assumed);
		if (v == KOC_WON_NONE)
			continue;
		unsigned n = s->ndecided++;
		s->decided[n].sector = k;
		s->decided[n].seat = (unsigned)s->best[k];
		s->decided[n].certain = v == KOC_WON_EVERY;
		s->decided[n].claimed = 0;
		s->decided[n].assumed = assumed;
		if (v == KOC_WON_EVERY) {
			s->winner[k] = s->best[k];
			s->decidable &= ~(1u << k);
		}
	}
	renumber_pending(s);
}

static void end_turn(hg_state *s)
{
	s->turns++;
	s->to_move = next_seat(s, s->to_move);
	s->phase = deck_left(s) > 0 ? KOC_PHASE_DRAW : KOC_PHASE_PLACE;
}

/* Why a territory is not won: the armies there, and who could still beat
 * the best complete one. */
static void note_territory(hg_diag *dg, const hg_state *s, unsigned sector)
{
	int best = -1;
	hg_buf b;
	hg_buf_init(&b);
	for (unsigned p = 0; p < s->nplayers; p++) {
		hg_buf_clear(&b);
		unsigned n = s->nsector[p][sector];
		if (n == KOC_ARMY) {
			hg_koc_key_describe(hg_koc_sector_key(s, p, sector), &b);
			hg_diag_note(dg, "%s's army there is complete: %s", hg_koc_seat_name(p), b.data);
			if (best < 0 || army_cmp(s, p, (unsigned)best, sector) > 0)
				best = (int)p;
		} else {
			hg_diag_note(dg, "%s has %u of 4 cards there", hg_koc_seat_name(p), n);
		}
	}
	hg_buf_free(&b);
	if (best < 0) {
		hg_diag_note(dg, "no army there is complete: a territory goes to a complete army");
		return;
	}
	hg_koc_key target = hg_koc_sector_key(s, (unsigned)best, sector);
	for (unsigned q = 0; q < s->nplayers; q++)
		if (!complete(s, q, sector) && hg_koc_could_beat(s, q, sector, target))
			hg_diag_note(dg, "%s can still gather a better army than %s's there from the "
				     "cards it could still hold (its hand, the deck, unseen cards)",
				     hg_koc_seat_name(q),
				     hg_koc_seat_name((unsigned)best));
}

/* ------------------------------------------------------------------ errors */
static int out_of_turn(const hg_state *s, const hg_action *a, hg_diags *d)
{
	hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "koc.out-of-turn",
				  "it is %s's turn, not %s's (rule %s)", hg_koc_seat_name(s->to_move),
				  hg_koc_seat_name(a->seat), sheet_turn);
	note_duty(dg, s);
	hg_diag_note(dg, "the turn passes to the left: P1, P2, ... in the order of the Players tag");
	return -1;
}

static void rests_on_territory(hg_diag *dg, const hg_state *s, unsigned k);

static int claim_missing(const hg_state *s, const hg_action *a, hg_diags *d)
{
	const hg_koc_claim *c = &s->pending[0];
	hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "koc.claim-missing",
				  "territory %u was won by %s, and the record must say so before "
				  "anything else (rule %s, ruling 7)", c->sector + 1,
				  hg_koc_seat_name(c->seat), sheet_armies);
	hg_diag_note(dg, "%s:%u:%u: %s's placement of '%s' in sector %u decided it",
		     s->won_at.file ? s->won_at.file : "", s->won_at.line, s->won_at.col,
		     hg_koc_seat_name(s->won_seat), card_id(s, s->won_card), s->won_sector + 1);
	for (unsigned i = 0; i < s->npending; i++)
		hg_diag_note(dg, "write '%s: win %u #%u'", hg_koc_seat_name(s->pending[i].seat),
			     s->pending[i].sector + 1, s->pending[i].marker);
	rests_on_territory(dg, s, c->sector);
	return -1;
}

static int not_dealt(const hg_state *s, const hg_action *a, hg_diags *d)
{
	hg_diag *dg;
	if (!s->first_known) {
		dg = hg_diag_add(d, HG_ERROR, a->pos, "koc.deal",
				 "the game begins with the deal: five cards to each player, the "
				 "first player first (rule 'Preparation for a game')");
		hg_diag_note(dg, "without a First or Seed tag, the seat dealt first is the first "
			     "player (ruling 2)");
		return -1;
	}
	dg = hg_diag_add(d, HG_ERROR, a->pos, "koc.deal",
			 "the game begins with the deal: %s has not been dealt five cards yet "
			 "(rule 'Preparation for a game')", hg_koc_seat_name(s->to_move));
	note_duty(dg, s);
	return -1;
}

/* A card the record shows going into a hand. */
static void to_hand(hg_state *s, unsigned seat, int c)
{
	s->loc[c] = (unsigned char)(KOC_IN_HAND + seat);
	s->held[seat][s->cards->mask[c]]++;
}

/* ------------------------------------------------------------------ the deal */
/* 'Preparation for a game', ruling 2: each player in turn order, the first
 * player first, is dealt the next five cards from the top of the deck. */
static int apply_deal(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (s->phase != KOC_PHASE_DEAL) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "koc.deal",
					  "the cards were dealt at the start: each player is dealt "
					  "five cards once (rule 'Preparation for a game')");
		note_duty(dg, s);
		return -1;
	}
	for (unsigned i = 0; i < a->ncards; i++) {
		int c = a->card[i];
		if (c == KOC_HIDDEN)
			continue;
		for (unsigned k = 0; k < i; k++)
			if (a->card[k] == c) {
				hg_diag_add(d, HG_ERROR, a->card_pos[i], "koc.card-seen",
					    "'%s' is dealt twice", s->cards->ids[c]);
				return -1;
			}
		if (s->order_known) {
			int found = 0;
			for (unsigned k = 0; k < KOC_HAND; k++)
				found |= s->order[s->dealt + k] == c;
			if (!found) {
				hg_diag *dg = hg_diag_add(d, HG_ERROR, a->card_pos[i], "koc.draw-mismatch",
							  "'%s' is not among the five cards %s is dealt "
							  "from the top of the deck (ruling 2)",
							  s->cards->ids[c], hg_koc_seat_name(a->seat));
				hg_buf b;
				hg_buf_init(&b);
				for (unsigned k = 0; k < KOC_HAND; k++)
					hg_buf_printf(&b, " %s", s->cards->ids[s->order[s->dealt + k]]);
				hg_diag_note(dg, "the deck order deals%s", b.data);
				hg_buf_free(&b);
				return -1;
			}
		} else if (s->loc[c] != KOC_UNSEEN) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, a->card_pos[i], "koc.card-seen",
						  "'%s' cannot be dealt: it has left the deck already",
						  s->cards->ids[c]);
			note_place(dg, s, c);
			return -1;
		}
	}
	if (s->order_known) {
		for (unsigned k = 0; k < KOC_HAND; k++)
			to_hand(s, a->seat, s->order[s->dealt + k]);
	} else {
		for (unsigned i = 0; i < a->ncards; i++)
			if (a->card[i] == KOC_HIDDEN)
				s->hidden[a->seat]++;
			else
				to_hand(s, a->seat, a->card[i]);
	}
	s->dealt += KOC_HAND;
	s->hand[a->seat] += KOC_HAND;
	s->deals++;
	s->to_move = next_seat(s, s->to_move);
	if (s->deals == s->nplayers)
		s->phase = KOC_PHASE_DRAW;
	return 0;
}

/* ------------------------------------------------------------------ turn, step 1 */
/* 'Turn sequence', step 1: draw the top card of the deck.  Ruling 3: when
 * the deck is empty the step is skipped. */
static int apply_draw(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (s->phase == KOC_PHASE_PLACE) {
		hg_diag *dg;
		if (deck_left(s) == 0) {
			dg = hg_diag_add(d, HG_ERROR, a->pos, "koc.deck-empty",
					 "the deck is empty: the draw is skipped and %s places a card "
					 "(rule %s, ruling 3)", hg_koc_seat_name(a->seat), sheet_turn);
		} else {
			dg = hg_diag_add(d, HG_ERROR, a->pos, "koc.draw-twice",
					 "%s has drawn a card this turn already: a turn is one draw, "
					 "then one placement (rule %s, step 1)",
					 hg_koc_seat_name(a->seat), sheet_turn);
		}
		note_duty(dg, s);
		return -1;
	}
	int c = a->card[0];
	if (s->order_known) {
		int top = s->order[s->dealt];
		if (c != KOC_HIDDEN && c != top) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, a->card_pos[0], "koc.draw-mismatch",
						  "%s draws '%s', but the top card of the deck is '%s' "
						  "(rule %s, step 1)", hg_koc_seat_name(a->seat),
						  s->cards->ids[c], s->cards->ids[top], sheet_turn);
			hg_diag_note(dg, "the deck's order follows from the Seed or DeckOrder tag "
				     "(ruling 2)");
			note_place(dg, s, c);
			return -1;
		}
		c = top;
	} else if (c != KOC_HIDDEN && s->loc[c] != KOC_UNSEEN) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->card_pos[0], "koc.card-seen",
					  "%s cannot draw '%s': it has left the deck already "
					  "(rule %s, step 1)", hg_koc_seat_name(a->seat),
					  s->cards->ids[c], sheet_turn);
		note_place(dg, s, c);
		return -1;
	}
	if (c == KOC_HIDDEN)
		s->hidden[a->seat]++;
	else
		to_hand(s, a->seat, c);
	s->hand[a->seat]++;
	s->dealt++;
	s->phase = KOC_PHASE_PLACE;
	return 0;
}

/* ------------------------------------------------------------------ turn, step 2 */
static void note_open_sectors(hg_diag *dg, const hg_state *s, unsigned seat)
{
	hg_buf b;
	hg_buf_init(&b);
	for (unsigned k = 0; k < KOC_SECTORS; k++)
		if (s->nsector[seat][k] < KOC_ARMY)
			hg_buf_printf(&b, hg_ngettext("%s%u (%u card)", "%s%u (%u cards)",
						      s->nsector[seat][k]),
				      b.len ? ", " : "", k + 1, s->nsector[seat][k]);
	hg_diag_note(dg, "%s's sectors with room: %s", hg_koc_seat_name(seat), b.data);
	hg_buf_free(&b);
}

/* 'Turn sequence', step 2: place one card from the hand into one of one's
 * own sectors, which holds at most four cards. */
static int apply_place(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (s->phase == KOC_PHASE_DRAW) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "koc.draw-missing",
					  "%s places a card without drawing first: a turn begins by "
					  "drawing the top card of the deck (rule %s, step 1)",
					  hg_koc_seat_name(a->seat), sheet_turn);
		hg_buf top;
		hg_buf_init(&top);
		next_cards(s, 1, &top);
		hg_diag_note(dg, "the deck holds %zu cards; write '%s: draw %s'%s first",
			     deck_left(s), hg_koc_seat_name(a->seat), top.data,
			     s->order_known ? "" : " (or 'draw ?')");
		hg_buf_free(&top);
		return -1;
	}
	unsigned p = a->seat, k = a->sector - 1;
	int c = a->card[0];
	int hidden = 0;		/* one of the hand's hidden cards (ruling 10) */
	if (s->loc[c] != KOC_IN_HAND + p) {
		if (s->loc[c] == KOC_UNSEEN && !s->order_known && s->hidden[p] > 0) {
			hidden = 1;
		} else {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, a->card_pos[0], "koc.not-in-hand",
						  "'%s' is not in %s's hand (rule %s, step 2)",
						  s->cards->ids[c], hg_koc_seat_name(p), sheet_turn);
			note_place(dg, s, c);
			note_hand(dg, s, p);
			return -1;
		}
	}
	if (s->nsector[p][k] == KOC_ARMY) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->sector_pos, "koc.sector-full",
					  "sector %u of %s already holds four cards (rule %s, step 2)",
					  k + 1, hg_koc_seat_name(p), sheet_turn);
		hg_diag_note(dg, "each player's sector can contain no more than four cards");
		note_open_sectors(dg, s, p);
		return -1;
	}
	if (hidden) {
		/* Once the deck is empty and every other hand is known, the
		 * unseen cards are all in this hand: nothing is left to doubt. */
		unsigned others = 0;
		for (unsigned q = 0; q < s->nplayers; q++)
			others += q != p ? s->hidden[q] : 0;
		if (deck_left(s) > 0 || others > 0) {
			hg_diag *dg = hg_diag_add(d, HG_UNVERIFIED, a->card_pos[0], "koc.hidden-card",
						  "placement of hidden card '%s' could not be verified",
						  s->cards->ids[c]);
			hg_diag_note(dg, hg_ngettext("%s holds %u card the record does not show; '%s' may be "
						     "one of them",
						     "%s holds %u cards the record does not show; '%s' may be "
						     "one of them", s->hidden[p]),
				     hg_koc_seat_name(p), s->hidden[p], s->cards->ids[c]);
		}
		s->hidden[p]--;
	} else {
		s->held[p][s->cards->mask[c]]--;
	}
	s->loc[c] = KOC_TABLE;
	s->hand[p]--;
	s->pool[s->cards->mask[c]]--;
	add_to_sector(s, p, k, c);
	s->placements++;
	if (s->nsector[p][k] == KOC_ARMY) {
		s->completed[p][k] = s->placements;
		note_complete(s, p, k);
	}
	decide_territories(s, k);
	if (s->ndecided) {
		s->won_at = a->pos;
		s->won_card = c;
		s->won_seat = p;
		s->won_sector = k;
	}
	if (!s->npending)
		end_turn(s);
	return 0;
}

/* ------------------------------------------------------------------ territories won */
/* Who won territory k follows from the symbols of the cards in it: the
 * verdict rests on each of them that the deck file reconstructs
 * (herald-data(5)). */
static void rests_on_territory(hg_diag *dg, const hg_state *s, unsigned k)
{
	const hg_gdata *g = s->data;
	hg_buf datum;
	hg_buf_init(&datum);
	for (unsigned p = 0; p < s->nplayers; p++)
		for (unsigned i = 0; i < s->nsector[p][k]; i++) {
			unsigned c = s->sector[p][k][i];
			if (c >= s->cards->n || g->ndeck == 0)
				continue;
			hg_buf_clear(&datum);
			hg_buf_printf(&datum, "cards.%s.symbols", g->deck[c % g->ndeck].id);
			hg_diag_rests_on(dg, &g->provs, g->file, datum.data);
		}
	hg_buf_free(&datum);
}

/* Ruling 10: the claim of a territory the last placement won in some
 * assignments of the hidden cards only.  It is taken as written (the
 * record's keeper may know the hands) and reported unverified. */
static int apply_uncertain_win(hg_state *s, const hg_action *a, unsigned i, hg_diags *d)
{
	unsigned k = a->sector - 1, seat = s->decided[i].seat;
	if (seat != a->seat) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "koc.not-won",
					  "territory %u can only be won by %s, whose army is the best "
					  "complete one there, not by %s (rule %s)", k + 1,
					  hg_koc_seat_name(seat), hg_koc_seat_name(a->seat),
					  sheet_armies);
		hg_diag_note(dg, "write '%s: win %u #%u'", hg_koc_seat_name(seat), k + 1,
			     decided_marker(s, i));
		return -1;
	}
	for (unsigned j = i + 1; j < s->ndecided; j++)
		if (s->decided[j].claimed) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, a->marker_pos, "koc.marker-number",
						  "territory %u comes before territory %u in the order "
						  "of ruling 7, whose claim is written already", k + 1,
						  s->decided[j].sector + 1);
			hg_diag_note(dg, "a territory herald cannot verify is claimed before the "
				     "territories after it in that order (ruling 10)");
			return -1;
		}
	unsigned m = decided_marker(s, i);
	if (a->marker != m) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->marker_pos, "koc.marker-number",
					  "territory %u takes victory marker #%u, not #%u (rule %s)",
					  k + 1, m, a->marker, sheet_armies);
		hg_diag_note(dg, "markers are numbered in the order territories are won (ruling 7)");
		return -1;
	}
	hg_diag *dg = hg_diag_add(d, HG_UNVERIFIED, a->pos, "koc.hidden-win",
				  "territory %u is won by %s only if the hidden cards lie one way: "
				  "the claim could not be verified (ruling 10)", k + 1,
				  hg_koc_seat_name(seat));
	for (unsigned q = 0; q < s->nplayers; q++)
		if (!complete(s, q, k))
			hg_diag_note(dg, "%s could still gather a better army there if the hidden hands "
				     "do not hold the cards it needs", hg_koc_seat_name(q));
	if (s->decided[i].assumed)
		hg_diag_note(dg, "herald tried %u of the assignments of the hidden cards and "
			     "assumed one wins it", KOC_VERDICT_BUDGET);
	s->decided[i].claimed = 1;
	s->winner[k] = (int)seat;
	s->marker[k] = m;
	s->decidable &= ~(1u << k);
	s->markers++;
	renumber_pending(s);
	if (s->npending == 0 && s->markers == KOC_SECTORS)
		end_game(s);
	return 0;
}

/* Ruling 10: the next action after a placement that may have won a
 * territory without its claim: unverified, as the claim would have been. */
static void note_unclaimed(hg_state *s, const hg_action *a, hg_diags *d)
{
	for (unsigned i = 0; i < s->ndecided; i++) {
		if (s->decided[i].certain || s->decided[i].claimed)
			continue;
		hg_diag *dg = hg_diag_add(d, HG_UNVERIFIED, a->pos, "koc.hidden-win",
					  "territory %u may have been won by %s: it depends on the "
					  "hidden cards, and the record does not claim it (ruling 10)",
					  s->decided[i].sector + 1,
					  hg_koc_seat_name(s->decided[i].seat));
		hg_diag_note(dg, "%s:%u:%u: %s's placement of '%s' in sector %u",
			     s->won_at.file ? s->won_at.file : "", s->won_at.line, s->won_at.col,
			     hg_koc_seat_name(s->won_seat), card_id(s, s->won_card),
			     s->won_sector + 1);
	}
	s->ndecided = 0;
}

/* 'Armies and domination in territories': the winner places a victory
 * marker, numbered in the order territories are won (ruling 7). */
static int apply_win(hg_state *s, const hg_action *a, hg_diags *d)
{
	unsigned k = a->sector - 1;
	const hg_koc_claim *c = NULL;
	for (unsigned i = 0; i < s->npending; i++)
		if (s->pending[i].sector == k)
			c = &s->pending[i];
	for (unsigned i = 0; !c && i < s->ndecided; i++)
		if (s->decided[i].sector == k && !s->decided[i].certain && !s->decided[i].claimed)
			return apply_uncertain_win(s, a, i, d);
	if (!c) {
		hg_diag *dg;
		if (s->winner[k] >= 0)
			dg = hg_diag_add(d, HG_ERROR, a->sector_pos, "koc.not-won",
					 "territory %u was won already, by %s with victory marker #%u "
					 "(rule %s)", k + 1, hg_koc_seat_name((unsigned)s->winner[k]),
					 s->marker[k], sheet_armies);
		else
			dg = hg_diag_add(d, HG_ERROR, a->sector_pos, "koc.not-won",
					 "territory %u is not won (yet) (rule %s, ruling 6)", k + 1,
					 sheet_armies);
		if (s->winner[k] < 0) {
			note_territory(dg, s, k);
			/* whether another army can still be better there
			 * follows from every card not on the table */
			hg_diag_rests_on(dg, &s->data->provs, s->data->file, "cards");
		}
		for (unsigned i = 0; i < s->npending; i++)
			hg_diag_note(dg, "territory %u was won: write '%s: win %u #%u'",
				     s->pending[i].sector + 1, hg_koc_seat_name(s->pending[i].seat),
				     s->pending[i].sector + 1, s->pending[i].marker);
		rests_on_territory(dg, s, k);
		return -1;
	}
	if (c->seat != a->seat) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "koc.not-won",
					  "territory %u is won by %s, not by %s (rule %s)", k + 1,
					  hg_koc_seat_name(c->seat), hg_koc_seat_name(a->seat),
					  sheet_armies);
		hg_diag_note(dg, "write '%s: win %u #%u'", hg_koc_seat_name(c->seat), k + 1, c->marker);
		rests_on_territory(dg, s, k);
		return -1;
	}
	if (c->marker != a->marker) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->marker_pos, "koc.marker-number",
					  "territory %u takes victory marker #%u, not #%u (rule %s)",
					  k + 1, c->marker, a->marker, sheet_armies);
		hg_diag_note(dg, "markers are numbered in the order territories are won; "
			     "%u territor%s won before this one", c->marker - 1,
			     c->marker == 2 ? "y was" : "ies were");
		if (s->npending > 1)
			hg_diag_note(dg, "territories won by one placement are numbered with the "
				     "placement's sector first, then by sector number (ruling 7)");
		return -1;
	}
	for (unsigned i = 0; i < s->ndecided; i++)
		if (s->decided[i].sector == k)
			s->decided[i].claimed = 1;
	size_t i = (size_t)(c - s->pending);
	memmove(&s->pending[i], &s->pending[i + 1], (s->npending - i - 1) * sizeof *c);
	s->npending--;
	s->markers++;
	if (s->npending == 0) {
		if (s->markers == KOC_SECTORS)
			end_game(s);
		else
			end_turn(s);
	}
	return 0;
}

int hg_koc_apply(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (s->phase == KOC_PHASE_OVER) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "koc.game-over",
					  "the game is over: the last victory marker is placed "
					  "(rule 'End of a game and a Winner')");
		hg_diag_note(dg, "the result is %s", s->result);
		return -1;
	}
	if (a->verb == KOC_WIN)
		return apply_win(s, a, d);
	if (s->npending)
		return claim_missing(s, a, d);
	if (s->ndecided)
		note_unclaimed(s, a, d);
	if (!s->first_known) {
		/* Ruling 2: without First or Seed, whoever is dealt first
		 * won the lot. */
		if (a->verb != KOC_DEAL)
			return not_dealt(s, a, d);
		s->first = s->to_move = a->seat;
		s->first_known = 1;
		int rc = apply_deal(s, a, d);
		if (rc != 0)
			s->first_known = 0;
		return rc;
	}
	if (a->seat != s->to_move)
		return out_of_turn(s, a, d);
	if (s->phase == KOC_PHASE_DEAL && a->verb != KOC_DEAL)
		return not_dealt(s, a, d);
	switch (a->verb) {
	case KOC_DEAL:
		return apply_deal(s, a, d);
	case KOC_DRAW:
		return apply_draw(s, a, d);
	default:
		return apply_place(s, a, d);
	}
}

/* ------------------------------------------------------------------ queries */
const char *hg_koc_result(const hg_state *s)
{
	return s->phase == KOC_PHASE_OVER ? s->result : NULL;
}

/* A move number counts rounds: round r holds every player's r-th turn, and
 * the deal belongs to round 1. */
unsigned hg_koc_turn(const hg_state *s)
{
	return s->turns / s->nplayers + 1;
}

const char *hg_koc_to_move(const hg_state *s)
{
	if (s->phase == KOC_PHASE_OVER)
		return NULL;
	if (s->npending)
		return hg_koc_seat_name(s->pending[0].seat);
	if (!s->first_known)
		return NULL;	/* any seat may be dealt first (ruling 2) */
	return hg_koc_seat_name(s->to_move);
}

/* A new action at the end of out; NULL short of memory (the unit of work
 * reports it, and the list stays short). */
static hg_action *add_action(hg_action_list *out, int verb, unsigned seat)
{
	hg_action *a = hg_try_calloc(1, sizeof *a);
	if (!a)
		return NULL;
	if (hg_action_list_push(out, a) != 0) {
		free(a);
		return NULL;
	}
	a->verb = verb;
	a->seat = seat;
	return a;
}

/* Every legal action, exactly: claims while territories wait to be written;
 * else the deal, the draw (with an unknown order: '?' or any unseen card),
 * or each card the hand may hold into each sector with room (with hidden
 * cards in the hand, unseen cards too: those placements are unverified). */
void hg_koc_legal(const hg_state *s, hg_action_list *out)
{
	if (s->phase == KOC_PHASE_OVER)
		return;
	for (unsigned i = 0; i < s->npending; i++) {
		hg_action *a = add_action(out, KOC_WIN, s->pending[i].seat);
		if (!a)
			return;
		a->sector = s->pending[i].sector + 1;
		a->marker = s->pending[i].marker;
	}
	/* Ruling 10: a territory won in some assignments of the hidden cards
	 * may be claimed (unverified), in the order of ruling 7. */
	for (unsigned i = 0; i < s->ndecided; i++) {
		if (s->decided[i].certain || s->decided[i].claimed)
			continue;
		int later_claimed = 0;
		for (unsigned j = i + 1; j < s->ndecided; j++)
			later_claimed |= s->decided[j].claimed;
		if (later_claimed)
			continue;
		hg_action *a = add_action(out, KOC_WIN, s->decided[i].seat);
		if (!a)
			return;
		a->sector = s->decided[i].sector + 1;
		a->marker = decided_marker(s, i);
	}
	if (s->npending)
		return;
	unsigned p = s->to_move;
	size_t n = s->cards->n;
	switch (s->phase) {
	case KOC_PHASE_DEAL:
		/* Without a known first player, any seat may be dealt first. */
		for (unsigned q = 0; q < s->nplayers; q++) {
			if (s->first_known ? q != p : 0)
				continue;
			hg_action *a = add_action(out, KOC_DEAL, q);
			if (!a)
				return;
			a->ncards = KOC_HAND;
			for (unsigned k = 0; k < KOC_HAND; k++)
				a->card[k] = s->order_known ? s->order[s->dealt + k] : KOC_HIDDEN;
		}
		return;
	case KOC_PHASE_DRAW: {
		hg_action *a = add_action(out, KOC_DRAW, p);
		if (!a)
			return;
		a->ncards = 1;
		a->card[0] = s->order_known ? s->order[s->dealt] : KOC_HIDDEN;
		for (size_t c = 0; !s->order_known && c < n; c++)
			if (s->loc[c] == KOC_UNSEEN) {
				if (!(a = add_action(out, KOC_DRAW, p)))
					return;
				a->ncards = 1;
				a->card[0] = (int)c;
			}
		return;
	}
	default:
		for (size_t c = 0; c < n; c++) {
			int holds = s->loc[c] == KOC_IN_HAND + p ||
				    (s->loc[c] == KOC_UNSEEN && !s->order_known && s->hidden[p]);
			for (unsigned k = 0; holds && k < KOC_SECTORS; k++)
				if (s->nsector[p][k] < KOC_ARMY) {
					hg_action *a = add_action(out, KOC_PLACE, p);
					if (!a)
						return;
					a->ncards = 1;
					a->card[0] = (int)c;
					a->sector = k + 1;
				}
		}
		return;
	}
}

static const char *const variants[] = {
	"markers: most victory markers wins; on a tie, higher marker numbers lose (default)",
	"points: 3 points a territory won, 2 for the second army, 1 for the third",
	NULL
};

static const char *const aliases[] = { "koc", "kingdoms", NULL };
static const char *const data_files[] = { "kingdoms-of-crusaders/deck.yaml", NULL };
static const hg_data_tag data_tags[] = { { "DeckFile", "", 0 }, { NULL, NULL, 0 } };

const hg_game_class hg_koc_class = {
	.id = "kingdoms-of-crusaders",
	.title = "The Kingdoms of Crusaders",
	.aliases = aliases,
	.variants = variants,
	.data_files = data_files,
	.data_tags = data_tags,
	.min_seats = KOC_MIN_PLAYERS,
	.max_seats = KOC_MAX_PLAYERS,
	.load = hg_koc_load,
	.unload = hg_koc_unload,
	.setup = hg_koc_setup,
	.clone = hg_koc_clone,
	.free_state = hg_koc_free_state,
	.parse = hg_koc_parse,
	.format = hg_koc_format,
	.apply = hg_koc_apply,
	.free_action = hg_koc_free_action,
	.legal = hg_koc_legal,
	.result = hg_koc_result,
	.turn = hg_koc_turn,
	.to_move = hg_koc_to_move,
	.render = hg_koc_render,
	.gen_tags = hg_koc_gen_tags,
	.chance_split = hg_koc_chance_split,
	.seat_find = hg_koc_seat_find,
	.seat_name = hg_koc_view_seat_name,
	.view_action = hg_koc_view_action,
	.names_chance = hg_koc_names_chance,
	.position_json = hg_koc_position_json,
	.facts = hg_koc_facts,
	.fact = hg_koc_fact,
	.reports_enomem = HG_REPORTS_ALL,
};
