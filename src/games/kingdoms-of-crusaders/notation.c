/* notation.c - the actions of The Kingdoms of Crusaders as written in HGN
 * (grammar/kingdoms-of-crusaders.ebnf):
 *   P1: deal c01 c02 c03 c04 c05    the five cards dealt ('?' when hidden)
 *   P1: draw c12                    the top card of the deck ('?' when hidden)
 *   P1: place c12 3                 a card from the hand into sector 3
 *   P2: win 3 #1                    territory 3 won, victory marker number 1
 * The verb decides which pattern applies; the patterns are compiled at load.
 * Parsing consults only the set-up (seats and cards), never the position. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "koc.h"

static const char *const forms =
	N_("the actions are 'deal C C C C C', 'draw C', 'place C SECTOR' and 'win SECTOR #MARKER' "
	   "(C a card id, or '?' for a hidden card in a deal or draw)");

enum { VERB_NONE = -1 };

#define VERB(w, v) { w, sizeof w - 1, v }
static const struct verb_word {
	const char *word;
	size_t len;
	int verb;
} verb_words[] = {
	/* the canonical verbs first: they are what most records say */
	VERB("place", KOC_PLACE), VERB("draw", KOC_DRAW), VERB("win", KOC_WIN), VERB("deal", KOC_DEAL),
	VERB("deals", KOC_DEAL), VERB("dealt", KOC_DEAL),
	VERB("draws", KOC_DRAW), VERB("drew", KOC_DRAW),
	VERB("places", KOC_PLACE), VERB("placed", KOC_PLACE),
	VERB("play", KOC_PLACE), VERB("plays", KOC_PLACE), VERB("played", KOC_PLACE),
	VERB("wins", KOC_WIN), VERB("won", KOC_WIN),
	VERB("take", KOC_WIN), VERB("takes", KOC_WIN), VERB("took", KOC_WIN),
	VERB("claim", KOC_WIN), VERB("claims", KOC_WIN),
};
#undef VERB

/* The verb the first word names, or VERB_NONE.  *plain is set when the
 * word is a verb word in ASCII, in any case: it is then one of the
 * alternatives of that verb's pattern (compile_patterns lists the same
 * words, and matches without regard to case), which matches it whole. */
static int verb_of(const hg_action_text *t, int *plain)
{
	*plain = 0;
	if (t->ntoks == 0)
		return VERB_NONE;
	const char *w = t->toks[0].text;
	size_t len = t->toks[0].len;
	/* A letter's two cases differ only in bit 0x20: the first letters
	 * and the lengths must agree before the words can. */
	unsigned first = (unsigned char)w[0] | 0x20u;
	for (size_t i = 0; i < HG_ARRAY_LEN(verb_words); i++)
		if (first == (unsigned char)verb_words[i].word[0] && len == verb_words[i].len &&
		    hg_ascii_same(w, verb_words[i].word, len, 0x20)) {
			*plain = 1;
			return verb_words[i].verb;
		}
	/* Any other spelling (accents, ...) is folded; the verb words are
	 * written folded. */
	char word[16];
	if (hg_name_fold_to(w, word, sizeof word) >= sizeof word)
		return VERB_NONE;
	for (size_t i = 0; i < HG_ARRAY_LEN(verb_words); i++)
		if (strcmp(word, verb_words[i].word) == 0)
			return verb_words[i].verb;
	return VERB_NONE;
}

static const char *const verb_forms[] = {
	N_("a deal lists the five cards a player is dealt: 'deal c01 c02 c03 c04 c05' "
	   "('?' for a hidden card)"),
	N_("a draw names the card drawn: 'draw c12', or 'draw ?' when it is hidden"),
	N_("a placement names a card and one of the sectors 1 to 5: 'place c12 3'"),
	N_("a territory won names the sector and the victory marker: 'win 3 #1'"),
};

static int seat_of(const hg_state *s, const hg_action_text *t, hg_diags *d)
{
	/* Nearly every action is written "P1: ...": a seat name as the writer
	 * spells it needs no folding. */
	const char *w = t->seat;
	if ((w[0] == 'P' || w[0] == 'p') && w[1] >= '1' && w[1] < '1' + (int)s->nplayers &&
	    w[2] == '\0')
		return w[1] - '1';
	/* "P1", "p1": the seat names fold to 'p' and the seat's number. */
	char word[8];
	if (hg_name_fold_to(t->seat, word, sizeof word) < sizeof word && word[0] == 'p')
		for (unsigned i = 0; i < s->nplayers; i++)
			if (strcmp(word + 1, hg_koc_seat_name(i) + 1) == 0)
				return (int)i;
	for (unsigned i = 0; i < s->nplayers; i++)
		if (s->names[i] && s->names[i][0] && hg_name_eq(t->seat, s->names[i]))
			return (int)i;
	hg_diag *dg = hg_diag_add(d, HG_ERROR, t->seat_pos, "koc.unknown-seat",
				  "'%s' is not a seat of this game", t->seat);
	hg_buf b;
	hg_buf_init(&b);
	for (unsigned i = 0; i < s->nplayers; i++) {
		hg_buf_printf(&b, "%s%s", i ? ", " : "", hg_koc_seat_name(i));
		if (s->names[i] && s->names[i][0])
			hg_buf_printf(&b, " (%s)", s->names[i]);
	}
	hg_diag_note(dg, "the seats are %s", b.data);
	hg_buf_free(&b);
	return -1;
}

enum { NO_CARD = -2 };	/* not KOC_HIDDEN */

/* A card word: its index, KOC_HIDDEN for '?', or NO_CARD after a diagnostic. */
static int card_of(const hg_state *s, const hg_atok *tok, int hidden_ok, hg_diags *d)
{
	if (tok->kind == HG_ATOK_UNKNOWN || (tok->len == 1 && tok->text[0] == '?')) {
		if (hidden_ok)
			return KOC_HIDDEN;
		hg_diag *dg = hg_diag_add(d, HG_ERROR, tok->pos, "koc.syntax",
					  "a placed card cannot be hidden: it lies face up on the table");
		hg_diag_note(dg, "name the card placed, e.g. 'place c12 3'");
		return NO_CARD;
	}
	const hg_koc_cards *cards = s->cards;
	int c = koc_card_find(cards, tok->text);
	if (c >= 0)
		return c;
	hg_diag *dg = hg_diag_add(d, HG_ERROR, tok->pos, "koc.unknown-card",
				  "unknown card '%s': the deck in play has no such card", tok->text);
	int near[3];
	size_t nn = hg_names_suggest(cards->names, tok->text, near, 3);
	if (nn) {
		hg_buf b;
		hg_buf_init(&b);
		for (size_t i = 0; i < nn; i++)
			hg_buf_printf(&b, "%s'%s'", i ? ", " : "", cards->ids[near[i]]);
		hg_diag_note(dg, "did you mean %s?", b.data);
		hg_buf_free(&b);
	}
	if (cards == &s->data->two)
		hg_diag_note(dg, "with two decks mixed, a card's id is the deck file's id followed by "
			     "'a' or 'b' (%s, %s, ...; ruling 1)", cards->ids[0],
			     cards->ids[s->data->ndeck]);
	else
		hg_diag_note(dg, "the deck (%s) holds %s ... %s", s->data->file, cards->ids[0],
			     cards->ids[cards->n - 1]);
	return NO_CARD;
}

/* Where the numbers of an action were written: from the pattern's groups,
 * or straight from the tokens when the action has its plain shape. */
typedef struct numbers {
	const char *sector, *marker;	/* digits, not NUL-terminated */
	size_t sector_len, marker_len;
	hg_pos sector_pos, marker_pos;
} numbers;

/* A group of digits, at most `max`; `what` for the diagnostic. */
static inline int number_of(const char *digits, size_t len, hg_pos pos, unsigned max,
			    const char *code, const char *what, const char *rule,
			    unsigned *out, hg_pos *out_pos, hg_diags *d)
{
	*out_pos = pos;
	unsigned v = 0;
	for (size_t i = 0; i < len && v <= 1000; i++)
		v = v * 10 + (unsigned)(digits[i] - '0');
	if (v < 1 || v > max) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, code, "there is no %s %.*s (rule '%s')",
					  what, (int)len, digits, rule);
		hg_diag_note(dg, "%ss are numbered 1 to %u", what, max);
		return -1;
	}
	*out = v;
	return 0;
}

static void group_of(const hg_action_text *t, const hg_match *m, int g, const char **digits,
		     size_t *len, hg_pos *pos)
{
	*digits = t->text + m->start[g];
	*len = m->end[g] - m->start[g];
	*pos = hg_action_text_pos(t, m->start[g]);
}

/* The length of a token made only of ASCII bytes other than ',' (what a
 * card is in the plain shape), or 0. */
static size_t plain_word(const char *w)
{
	size_t n = 0;
	for (; w[n]; n++)
		if ((unsigned char)w[n] >= 0x80 || w[n] == ',')
			return 0;
	return n;
}

/* The length of a token of ASCII digits only, or 0. */
static size_t digits_len(const char *w)
{
	size_t n = 0;
	while (w[n] >= '0' && w[n] <= '9')
		n++;
	return w[n] ? 0 : n;
}

/* The plain shapes, as the writer spells them: 'deal C C C C C',
 * 'draw C', 'place C N', 'win N #M', with the verb word in ASCII (verb_of)
 * and the other words in ASCII.  Such an action matches its verb's
 * pattern (compile_patterns) for certain, with the groups at the tokens
 * found here: the text is the tokens joined by single spaces, and no
 * optional part of the pattern can take a word.  1 when t has the plain
 * shape (n filled), 0 to leave it to the pattern. */
static int plain_shape(const hg_action_text *t, int verb, numbers *n)
{
	const hg_atok *tok = t->toks;
	switch (verb) {
	case KOC_DEAL:
		/* any words at all: the deal's count is checked after */
		for (size_t i = 1; i < t->ntoks; i++)
			for (const char *p = tok[i].text; *p; p++)
				if ((unsigned char)*p >= 0x80)
					return 0;
		return 1;
	case KOC_DRAW:
		return t->ntoks == 2 && plain_word(tok[1].text);
	case KOC_PLACE:
		if (t->ntoks != 3 || !plain_word(tok[1].text) ||
		    !(n->sector_len = digits_len(tok[2].text)))
			return 0;
		n->sector = tok[2].text;
		n->sector_pos = tok[2].pos;
		return 1;
	case KOC_WIN:
		if (t->ntoks != 3 || !(n->sector_len = digits_len(tok[1].text)) ||
		    tok[2].text[0] != '#' || !(n->marker_len = digits_len(tok[2].text + 1)))
			return 0;
		n->sector = tok[1].text;
		n->sector_pos = tok[1].pos;
		n->marker = tok[2].text + 1;
		n->marker_pos = tok[2].pos;	/* the token holding the digits */
		return 1;
	}
	return 0;
}

/* Any other spelling goes through the verb's pattern.  1 on a match. */
static int pattern_shape(const hg_state *s, const hg_action_text *t, int verb, numbers *n)
{
	const hg_gdata *g = s->data;
	const hg_pattern *pat[] = { g->pat_deal, g->pat_draw, g->pat_place, g->pat_win };
	hg_match m;
	if (!hg_pattern_match(pat[verb], t->text, &m))
		return 0;
	if (verb == KOC_PLACE)
		group_of(t, &m, g->g_place_sector, &n->sector, &n->sector_len, &n->sector_pos);
	if (verb == KOC_WIN) {
		group_of(t, &m, g->g_win_sector, &n->sector, &n->sector_len, &n->sector_pos);
		group_of(t, &m, g->g_win_marker, &n->marker, &n->marker_len, &n->marker_pos);
	}
	return 1;
}

static int is_comma(const hg_atok *tok)
{
	return tok->kind == HG_ATOK_PUNCT && tok->text[0] == ',' && tok->text[1] == '\0';
}

/* A deal's five cards, commas between them allowed. */
static int parse_cards(const hg_state *s, const hg_action_text *t, hg_action *a, hg_diags *d)
{
	int rc = 0;
	a->ncards = 0;
	for (size_t i = 1; i < t->ntoks; i++) {
		const hg_atok *tok = &t->toks[i];
		if (is_comma(tok))
			continue;
		int c = card_of(s, tok, 1, d);
		if (c == NO_CARD) {
			rc = -1;
			continue;
		}
		a->card_pos[a->ncards] = tok->pos;
		a->card[a->ncards++] = c;
	}
	return rc;
}

/* The card of a draw or a placement: the word after the verb (either
 * shape has it there, and never a comma). */
static int parse_card(const hg_state *s, const hg_action_text *t, hg_action *a,
		      int hidden_ok, hg_diags *d)
{
	const hg_atok *tok = &t->toks[1];
	int c = card_of(s, tok, hidden_ok, d);
	if (c == NO_CARD)
		return -1;
	a->card_pos[0] = tok->pos;
	a->card[0] = c;
	a->ncards = 1;
	return 0;
}

static void syntax_error(const hg_action_text *t, int verb, hg_diags *d)
{
	hg_diag *dg;
	if (verb == VERB_NONE) {
		dg = hg_diag_add(d, HG_ERROR, t->pos, "koc.syntax",
				 "'%s' is not an action of The Kingdoms of Crusaders",
				 t->ntoks ? t->toks[0].text : "");
		hg_diag_note(dg, "%s", _(forms));
		return;
	}
	dg = hg_diag_add(d, HG_ERROR, t->pos, "koc.syntax", "malformed action '%s'", t->text);
	hg_diag_note(dg, "%s", _(verb_forms[verb]));
}

/* parse's action: the game's spare one (hg_koc_shared.spare_action) or a
 * new one, all zero, holding a reference to the shared part it goes back
 * to. */
static hg_action *parse_alloc(const hg_state *s)
{
	/* copied from a zero action: a clear of this size is a `rep stos`,
	 * whose start-up cost more than the rest of the parse */
	static const hg_action zero;
	hg_koc_shared *sh = s->sh;
	hg_action *a = sh->spare_action;
	if (a)
		sh->spare_action = NULL;
	else
		a = hg_xmalloc(sizeof *a);
	*a = zero;
	a->home = sh;
	sh->refs++;
	return a;
}

/* parse, with the plain shapes taken from the tokens (use_plain) or every
 * action matched against its pattern (the unit tests compare the two). */
static hg_action *parse_action(const hg_state *s, const hg_action_text *t, int use_plain,
			       hg_diags *d)
{
	int seat = seat_of(s, t, d);
	int plain;
	int verb = verb_of(t, &plain);
	numbers n = { 0 };
	if (verb == VERB_NONE ||
	    !((use_plain && plain && plain_shape(t, verb, &n)) || pattern_shape(s, t, verb, &n))) {
		syntax_error(t, verb, d);
		return NULL;
	}
	if (seat < 0)
		return NULL;
	/* What the verb uses is set below: card[i] and card_pos[i] for
	 * i < ncards, the sector for place and win, the marker for win; the
	 * rest stays zero (parse_alloc). */
	hg_action *a = parse_alloc(s);
	a->verb = verb;
	a->seat = (unsigned)seat;
	a->pos = t->seat_pos.line ? t->seat_pos : t->pos;
	int rc = 0;
	switch (verb) {
	case KOC_DEAL: {
		size_t nc = 0;
		for (size_t i = 1; i < t->ntoks; i++)
			nc += !is_comma(&t->toks[i]);
		if (nc != KOC_HAND) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, t->pos, "koc.syntax",
						  "a deal is five cards, not %zu "
						  "(rule 'Preparation for a game')", nc);
			hg_diag_note(dg, "%s", _(verb_forms[KOC_DEAL]));
			rc = -1;
		} else {
			rc = parse_cards(s, t, a, d);
		}
		break;
	}
	case KOC_DRAW:
		rc = parse_card(s, t, a, 1, d);
		break;
	case KOC_PLACE:
		rc = parse_card(s, t, a, 0, d);
		if (number_of(n.sector, n.sector_len, n.sector_pos, KOC_SECTORS, "koc.sector",
			      "sector", "Location card", &a->sector, &a->sector_pos, d) != 0)
			rc = -1;
		break;
	case KOC_WIN:
		if (number_of(n.sector, n.sector_len, n.sector_pos, KOC_SECTORS, "koc.sector",
			      "sector", "Location card", &a->sector, &a->sector_pos, d) != 0)
			rc = -1;
		if (number_of(n.marker, n.marker_len, n.marker_pos, KOC_SECTORS,
			      "koc.marker-number", "victory marker",
			      "Armies and domination in territories", &a->marker, &a->marker_pos,
			      d) != 0)
			rc = -1;
		break;
	}
	if (rc != 0) {
		hg_koc_free_action(a);
		return NULL;
	}
	return a;
}

hg_action *hg_koc_parse(const hg_state *s, const hg_action_text *t, hg_diags *d)
{
	return parse_action(s, t, 1, d);
}

hg_action *hg_koc_parse_by_patterns(const hg_state *s, const hg_action_text *t, hg_diags *d)
{
	return parse_action(s, t, 0, d);
}

void hg_koc_format(const hg_state *s, const hg_action *a, hg_buf *seat, hg_buf *body)
{
	static const char *const verbs[] = { "deal", "draw", "place", "win" };
	hg_buf_puts(seat, hg_koc_seat_name(a->seat));
	hg_buf_puts(body, verbs[a->verb]);
	if (a->verb == KOC_WIN) {
		hg_buf_printf(body, " %u #%u", a->sector, a->marker);
		return;
	}
	for (unsigned i = 0; i < a->ncards; i++)
		hg_buf_printf(body, " %s", a->card[i] == KOC_HIDDEN ? "?" : s->cards->ids[a->card[i]]);
	if (a->verb == KOC_PLACE)
		hg_buf_printf(body, " %u", a->sector);
}

void hg_koc_free_action(hg_action *a)
{
	hg_koc_shared *home = a ? a->home : NULL;
	if (!home) {
		free(a);
		return;
	}
	if (!home->spare_action)
		home->spare_action = a;
	else
		free(a);
	/* The state still holds the shared part, as a rule: no call then. */
	if (home->refs > 1)
		home->refs--;
	else
		hg_koc_shared_unref(home);
}
