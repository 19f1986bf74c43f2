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
	"the actions are 'deal C C C C C', 'draw C', 'place C SECTOR' and 'win SECTOR #MARKER' "
	"(C a card id, or '?' for a hidden card in a deal or draw)";

enum { VERB_NONE = -1 };

static const struct verb_word {
	const char *word;
	int verb;
} verb_words[] = {
	/* the canonical verbs first: they are what most records say */
	{ "place", KOC_PLACE }, { "draw", KOC_DRAW }, { "win", KOC_WIN }, { "deal", KOC_DEAL },
	{ "deals", KOC_DEAL }, { "dealt", KOC_DEAL },
	{ "draws", KOC_DRAW }, { "drew", KOC_DRAW },
	{ "places", KOC_PLACE }, { "placed", KOC_PLACE },
	{ "play", KOC_PLACE }, { "plays", KOC_PLACE }, { "played", KOC_PLACE },
	{ "wins", KOC_WIN }, { "won", KOC_WIN },
	{ "take", KOC_WIN }, { "takes", KOC_WIN }, { "took", KOC_WIN },
	{ "claim", KOC_WIN }, { "claims", KOC_WIN },
};

static int verb_of(const hg_action_text *t)
{
	if (t->ntoks == 0)
		return VERB_NONE;
	/* Folded once; the verb words are written folded. */
	char word[16];
	if (hg_name_fold_to(t->toks[0].text, word, sizeof word) >= sizeof word)
		return VERB_NONE;
	for (size_t i = 0; i < HG_ARRAY_LEN(verb_words); i++)
		if (strcmp(word, verb_words[i].word) == 0)
			return verb_words[i].verb;
	return VERB_NONE;
}

static const char *const verb_forms[] = {
	"a deal lists the five cards a player is dealt: 'deal c01 c02 c03 c04 c05' "
	"('?' for a hidden card)",
	"a draw names the card drawn: 'draw c12', or 'draw ?' when it is hidden",
	"a placement names a card and one of the sectors 1 to 5: 'place c12 3'",
	"a territory won names the sector and the victory marker: 'win 3 #1'",
};

static int seat_of(const hg_state *s, const hg_action_text *t, hg_diags *d)
{
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
	if (tok->kind == HG_ATOK_UNKNOWN || strcmp(tok->text, "?") == 0) {
		if (hidden_ok)
			return KOC_HIDDEN;
		hg_diag *dg = hg_diag_add(d, HG_ERROR, tok->pos, "koc.syntax",
					  "a placed card cannot be hidden: it lies face up on the table");
		hg_diag_note(dg, "name the card placed, e.g. 'place c12 3'");
		return NO_CARD;
	}
	const hg_koc_cards *cards = s->cards;
	int c = hg_names_find(cards->names, tok->text);
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

/* A group of digits, at most `max`; `what` for the diagnostic. */
static int number_of(const hg_action_text *t, const hg_match *m, int g, unsigned max,
		     const char *code, const char *what, const char *rule, unsigned *out,
		     hg_pos *pos, hg_diags *d)
{
	*pos = hg_action_text_pos(t, m->start[g]);
	size_t len = m->end[g] - m->start[g];
	unsigned v = 0;
	for (size_t i = 0; i < len && v <= 1000; i++)
		v = v * 10 + (unsigned)(t->text[m->start[g] + i] - '0');
	if (v < 1 || v > max) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, *pos, code, "there is no %s %.*s (rule '%s')",
					  what, (int)len, t->text + m->start[g], rule);
		hg_diag_note(dg, "%ss are numbered 1 to %u", what, max);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_cards(const hg_state *s, const hg_action_text *t, hg_action *a,
		       int hidden_ok, hg_diags *d)
{
	int rc = 0;
	unsigned want = a->verb == KOC_DEAL ? KOC_HAND : 1, slots = 0;
	a->ncards = 0;
	for (size_t i = 1; i < t->ntoks && slots < want; i++) {
		const hg_atok *tok = &t->toks[i];
		if (tok->kind == HG_ATOK_PUNCT && strcmp(tok->text, ",") == 0)
			continue;
		slots++;	/* draw and place: one card; the sector follows */
		int c = card_of(s, tok, hidden_ok, d);
		if (c == NO_CARD) {
			rc = -1;
			continue;
		}
		a->card_pos[a->ncards] = tok->pos;
		a->card[a->ncards++] = c;
	}
	return rc;
}

static void syntax_error(const hg_action_text *t, int verb, hg_diags *d)
{
	hg_diag *dg;
	if (verb == VERB_NONE) {
		dg = hg_diag_add(d, HG_ERROR, t->pos, "koc.syntax",
				 "'%s' is not an action of The Kingdoms of Crusaders",
				 t->ntoks ? t->toks[0].text : "");
		hg_diag_note(dg, "%s", forms);
		return;
	}
	dg = hg_diag_add(d, HG_ERROR, t->pos, "koc.syntax", "malformed action '%s'", t->text);
	hg_diag_note(dg, "%s", verb_forms[verb]);
}

hg_action *hg_koc_parse(const hg_state *s, const hg_action_text *t, hg_diags *d)
{
	int seat = seat_of(s, t, d);
	int verb = verb_of(t);
	const hg_gdata *g = s->data;
	const hg_pattern *pat[] = { g->pat_deal, g->pat_draw, g->pat_place, g->pat_win };
	hg_match m;
	if (verb == VERB_NONE || !hg_pattern_match(pat[verb], t->text, &m)) {
		syntax_error(t, verb, d);
		return NULL;
	}
	if (seat < 0)
		return NULL;
	hg_action *a = hg_xcalloc(1, sizeof *a);
	a->verb = verb;
	a->seat = (unsigned)seat;
	a->pos = t->seat_pos.line ? t->seat_pos : t->pos;
	int rc = 0;
	switch (verb) {
	case KOC_DEAL: {
		size_t n = 0;
		for (size_t i = 1; i < t->ntoks; i++)
			n += !(t->toks[i].kind == HG_ATOK_PUNCT && strcmp(t->toks[i].text, ",") == 0);
		if (n != KOC_HAND) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, t->pos, "koc.syntax",
						  "a deal is five cards, not %zu "
						  "(rule 'Preparation for a game')", n);
			hg_diag_note(dg, "%s", verb_forms[KOC_DEAL]);
			rc = -1;
		} else {
			rc = parse_cards(s, t, a, 1, d);
		}
		break;
	}
	case KOC_DRAW:
		rc = parse_cards(s, t, a, 1, d);
		break;
	case KOC_PLACE:
		rc = parse_cards(s, t, a, 0, d);
		if (number_of(t, &m, g->g_place_sector, KOC_SECTORS, "koc.sector", "sector",
			      "Location card", &a->sector, &a->sector_pos, d) != 0)
			rc = -1;
		break;
	case KOC_WIN:
		if (number_of(t, &m, g->g_win_sector, KOC_SECTORS, "koc.sector", "sector",
			      "Location card", &a->sector, &a->sector_pos, d) != 0)
			rc = -1;
		if (number_of(t, &m, g->g_win_marker, KOC_SECTORS, "koc.marker-number",
			      "victory marker", "Armies and domination in territories", &a->marker,
			      &a->marker_pos, d) != 0)
			rc = -1;
		break;
	}
	if (rc != 0) {
		free(a);
		return NULL;
	}
	return a;
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
	free(a);
}
