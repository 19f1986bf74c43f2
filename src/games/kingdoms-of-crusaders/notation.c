/* notation.c - the actions of The Kingdoms of Crusaders as written in HGN
 * (grammar/kingdoms-of-crusaders.ebnf):
 *   P1: deal c01 c02 c03 c04 c05    the five cards dealt ('?' when hidden)
 *   P1: draw c12                    the top card of the deck ('?' when hidden)
 *   P1: place c12 3                 a card from the hand into sector 3
 *   P2: win 3 #1                    territory 3 won, victory marker number 1
 * A sector is its number, or a location's id or alias from the deck file
 * ("place c12 cyprus"); herald writes the number.
 *
 * One grammar (doc/design-grammar.md).  The table `shapes` below describes
 * each action once: its verb words, and for each part after the verb the
 * words that may lead it and what the canonical form glues to it.  From it,
 * at load (hg_koc_grammar_build), come the verb words verb_of looks up and
 * each verb's PCRE2 pattern, which reads every spelling; from it too, at
 * parse, the token reader takes the canonical shape (the one herald writes,
 * and nearly every record's) straight from the tokens, without a match.
 * PCRE2 stays the reader of the grammar, as the project's rule for action
 * syntax asks; the token reader only skips it where the table says the
 * pattern would match, with the same parts.  tests/koc-grammar.test holds
 * the reader to every production of the EBNF, and test-koc both ways of
 * reading to each other.
 *
 * Parsing consults only the set-up (seats, cards, locations), never the
 * position. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "koc.h"

static const char *const forms =
	N_("the actions are 'deal C C C C C', 'draw C', 'place C SECTOR' and 'win SECTOR #MARKER' "
	   "(C a card id, or '?' for a hidden card in a deal or draw)");

enum { VERB_NONE = -1 };

/* What a part after the verb holds. */
enum slot {
	SLOT_ITEMS,	/* the deal's cards: any words (their count is checked after) */
	SLOT_ITEM,	/* a card or '?' */
	SLOT_CARD,	/* a card */
	SLOT_SECTOR,	/* a sector: number, "s" and number, or location */
	SLOT_MARKER,	/* a victory marker's number */
};

typedef struct part {
	enum slot slot;
	/* The words that may lead the part: a PCRE2 alternation, each with
	 * what follows it (a space, or nothing when glued); "" for none. */
	const char *lead;
	/* What the canonical form glues before the slot ("#1"): one of the
	 * lead's spellings, without its space; "" for nothing. */
	const char *tag;
	unsigned char taglen;
} part;

#define TAG(t) t, sizeof t - 1
/* The actions, by verb (enum hg_koc_verb): the one description of their
 * syntax.  The verb words are '|'-separated, the canonical first. */
static const struct shape {
	const char *verbs;
	unsigned nparts;
	part parts[2];
} shapes[KOC_NVERBS] = {
	[KOC_DEAL] = { "deal|deals|dealt", 1, { { SLOT_ITEMS, "", TAG("") } } },
	[KOC_DRAW] = { "draw|draws|drew", 1, { { SLOT_ITEM, "", TAG("") } } },
	[KOC_PLACE] = { "place|places|placed|play|plays|played", 2,
			{ { SLOT_CARD, "", TAG("") },
			  { SLOT_SECTOR, "(?:(?:in|into|to|on|at) )?(?:sector )?", TAG("") } } },
	[KOC_WIN] = { "win|wins|won|take|takes|took|claim|claims", 2,
		      { { SLOT_SECTOR, "(?:(?:territory|sector) )?", TAG("") },
			{ SLOT_MARKER, "(?:(?:victory )?marker |# ?)", TAG("#") } } },
};
#undef TAG

/* What each slot is in a pattern: the words of the subject (the action's
 * tokens joined by single spaces) it takes. */
static const char *const slot_pattern[] = {
	[SLOT_ITEMS] = "(?: [^ ]+)*",
	[SLOT_ITEM] = "[^ ,]+",
	[SLOT_CARD] = "[^ ,]+",
	[SLOT_SECTOR] = "(?<sector>[^ ,]+)",
	[SLOT_MARKER] = "(?<marker>[0-9]+)",
};

int hg_koc_grammar_build(hg_koc_grammar *g)
{
	memset(g, 0, sizeof *g);
	hg_buf re;
	hg_buf_init(&re);
	/* The canonical verb words first, the most frequent first: verb_of
	 * tries them in this order. */
	static const int by_frequency[KOC_NVERBS] = { KOC_PLACE, KOC_DRAW, KOC_WIN, KOC_DEAL };
	for (int canonical = 1; canonical >= 0; canonical--)
		for (int i = 0; i < KOC_NVERBS; i++) {
			const char *w = shapes[by_frequency[i]].verbs;
			size_t len = strcspn(w, "|");
			if (!canonical)
				w += len + (w[len] == '|');
			for (; *w; w += len + (w[len] == '|')) {
				len = strcspn(w, "|");
				hg_koc_verb_word *vw = &g->words[g->nwords++];
				memcpy(vw->word, w, len);
				vw->len = (unsigned char)len;
				vw->verb = (signed char)by_frequency[i];
				if (canonical)
					break;
			}
		}
	for (int v = 0; v < KOC_NVERBS; v++) {
		const struct shape *sh = &shapes[v];
		/* The verb is known before the pattern is tried (verb_of): any
		 * word will do for it there. */
		hg_buf_clear(&re);
		hg_buf_puts(&re, "[^ ]+");
		for (unsigned i = 0; i < sh->nparts; i++) {
			const part *p = &sh->parts[i];
			if (p->slot != SLOT_ITEMS)
				hg_buf_putc(&re, ' ');
			hg_buf_printf(&re, "%s%s", p->lead, slot_pattern[p->slot]);
		}
		g->pattern[v] = hg_buf_failed(&re) ? NULL : hg_pattern_try_new(re.data);
		if (!g->pattern[v])
			break;
		g->g_sector[v] = hg_pattern_group(g->pattern[v], "sector");
		g->g_marker[v] = hg_pattern_group(g->pattern[v], "marker");
	}
	hg_buf_free(&re);
	if (hg_alloc_lost()) {
		hg_koc_grammar_free(g);
		memset(g, 0, sizeof *g);
		return -1;
	}
	return 0;
}

void hg_koc_grammar_free(hg_koc_grammar *g)
{
	for (int v = 0; v < KOC_NVERBS; v++)
		hg_pattern_free(g->pattern[v]);
}

/* The verb the first word names, or VERB_NONE.  *plain is set when the
 * word is a verb word in ASCII, in any case: only then may the token
 * reader take the action. */
static int verb_of(const hg_koc_grammar *g, const hg_action_text *t, int *plain)
{
	*plain = 0;
	if (t->ntoks == 0)
		return VERB_NONE;
	const char *w = t->toks[0].text;
	size_t len = t->toks[0].len;
	/* A letter's two cases differ only in bit 0x20: the first letters
	 * and the lengths must agree before the words can. */
	unsigned first = (unsigned char)w[0] | 0x20u;
	for (size_t i = 0; i < g->nwords; i++)
		if (first == (unsigned char)g->words[i].word[0] && len == g->words[i].len &&
		    hg_ascii_same(w, g->words[i].word, len, 0x20)) {
			*plain = 1;
			return g->words[i].verb;
		}
	/* Any other spelling (accents, ...) is folded; the verb words are
	 * written folded. */
	char word[16];
	if (hg_name_fold_to(w, word, sizeof word) >= sizeof word)
		return VERB_NONE;
	for (size_t i = 0; i < g->nwords; i++)
		if (strcmp(word, g->words[i].word) == 0)
			return g->words[i].verb;
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

/* Where the sector and the marker of an action were written: from the
 * pattern's groups, or straight from the tokens in the canonical shape. */
typedef struct slots {
	const char *sector, *marker;	/* not NUL-terminated */
	size_t sector_len, marker_len;
	hg_pos sector_pos, marker_pos;
} slots;

static int number_error(const char *digits, size_t len, hg_pos pos, unsigned max,
			const char *code, const char *what, const char *rule, hg_diags *d)
{
	hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, code, "there is no %s %.*s (rule '%s')",
				  what, (int)len, digits, rule);
	hg_diag_note(dg, "%ss are numbered 1 to %u", what, max);
	return -1;
}

/* A group of digits, 1 to `max`; `what` for the diagnostic. */
static inline int number_of(const char *digits, size_t len, hg_pos pos, unsigned max,
			    const char *code, const char *what, const char *rule,
			    unsigned *out, hg_diags *d)
{
	unsigned v = 0;
	for (size_t i = 0; i < len && v <= 1000; i++)
		v = v * 10 + (unsigned)(digits[i] - '0');
	if (v < 1 || v > max)
		return number_error(digits, len, pos, max, code, what, rule, d);
	*out = v;
	return 0;
}

/* How many of the `len` bytes at w are ASCII digits, from the first. */
static size_t count_digits(const char *w, size_t len)
{
	size_t n = 0;
	while (n < len && w[n] >= '0' && w[n] <= '9')
		n++;
	return n;
}

static void unknown_location(const hg_gdata *g, const char *word, hg_pos pos, hg_diags *d)
{
	hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "koc.sector",
				  "there is no sector '%s': no location has that name "
				  "(rule 'Location card')", word);
	int near[3];
	size_t nn = g->location_names ? hg_names_suggest(g->location_names, word, near, 3) : 0;
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < nn; i++)
		hg_buf_printf(&b, "%s'%s' (%d)", i ? ", " : "", g->location[near[i]].id,
			      near[i] + 1);
	if (nn)
		hg_diag_note(dg, "did you mean %s?", b.data);
	hg_buf_clear(&b);
	for (unsigned k = 0; k < KOC_SECTORS; k++)
		if (g->location[k].id)
			hg_buf_printf(&b, "%s%s (%u)", b.len ? ", " : "", g->location[k].id, k + 1);
	if (b.len)
		hg_diag_note(dg, "a sector is its number, 1 to %d, or its location: %s, "
			     "or an alias the deck file gives", KOC_SECTORS, b.data);
	else
		hg_diag_note(dg, "sectors are numbered 1 to %d (the deck file %s names no "
			     "location)", KOC_SECTORS, g->file);
	hg_buf_free(&b);
}

/* A sector as written: its number, "s" and its number ("s3"), or a
 * location's id or alias from the deck file ("cyprus"). */
static int sector_word(const hg_gdata *g, const char *w, size_t len, hg_pos pos, unsigned *out,
		       hg_diags *d)
{
	size_t skip = len > 1 && (w[0] == 's' || w[0] == 'S');
	if (len > skip && count_digits(w + skip, len - skip) == len - skip)
		return number_of(w + skip, len - skip, pos, KOC_SECTORS, "koc.sector", "sector",
				 "Location card", out, d);
	char word[64];
	if (len >= sizeof word)
		len = sizeof word - 1;	/* no location has so long a name */
	memcpy(word, w, len);
	word[len] = '\0';
	int k = g->location_names ? hg_names_find(g->location_names, word) : -1;
	if (k < 0) {
		unknown_location(g, word, pos, d);
		return -1;
	}
	*out = (unsigned)k + 1;
	return 0;
}

/* The same, with the one digit nearly every record writes read here. */
static inline int sector_of(const hg_gdata *g, const char *w, size_t len, hg_pos pos,
			    unsigned *out, hg_diags *d)
{
	if (len == 1 && w[0] >= '1' && w[0] < '1' + KOC_SECTORS) {
		*out = (unsigned)(w[0] - '0');
		return 0;
	}
	return sector_word(g, w, len, pos, out, d);
}

/* The length of a token made only of ASCII bytes other than ',', or 0. */
static size_t plain_word(const char *w)
{
	size_t n = 0;
	for (; w[n]; n++)
		if ((unsigned char)w[n] >= 0x80 || w[n] == ',')
			return 0;
	return n;
}

/* The canonical shape of the verb's table entry, read from the tokens: the
 * verb word in ASCII (verb_of), then one token for each part, made of the
 * part's tag and its slot, in ASCII (a marker: digits); or, for the deal,
 * any words in ASCII.  Such an action matches its verb's pattern for
 * certain, with the groups at the tokens found here: the pattern's subject
 * is the tokens joined by single spaces, each tag is one spelling of its
 * part's lead, and no optional word of a lead is present.  1 when t has
 * the canonical shape (n filled), 0 to leave it to the pattern. */
static int canonical_shape(const hg_action_text *t, int verb, slots *n)
{
	const struct shape *sh = &shapes[verb];
	if (sh->parts[0].slot == SLOT_ITEMS) {
		for (size_t i = 1; i < t->ntoks; i++)
			for (const char *p = t->toks[i].text; *p; p++)
				if ((unsigned char)*p >= 0x80)
					return 0;
		return 1;
	}
	if (t->ntoks != 1 + sh->nparts)
		return 0;
	for (unsigned i = 0; i < sh->nparts; i++) {
		const part *p = &sh->parts[i];
		const hg_atok *tok = &t->toks[1 + i];
		if (tok->len <= p->taglen)
			return 0;
		for (size_t k = 0; k < p->taglen; k++)	/* a byte or none: no call */
			if (tok->text[k] != p->tag[k])
				return 0;
		const char *w = tok->text + p->taglen;
		size_t len = tok->len - p->taglen;
		if (p->slot == SLOT_MARKER ? count_digits(w, len) != len : plain_word(w) != len)
			return 0;
		if (p->slot == SLOT_SECTOR) {
			n->sector = w;
			n->sector_len = len;
			n->sector_pos = tok->pos;
		} else if (p->slot == SLOT_MARKER) {
			n->marker = w;
			n->marker_len = len;
			n->marker_pos = tok->pos;	/* the token holding the digits */
		}
	}
	return 1;
}

/* Any other spelling goes through the verb's pattern.  1 on a match. */
static int pattern_shape(const hg_koc_grammar *g, const hg_action_text *t, int verb, slots *n)
{
	hg_match m;
	if (!hg_pattern_match(g->pattern[verb], t->text, &m))
		return 0;
	int gs = g->g_sector[verb], gm = g->g_marker[verb];
	if (gs >= 0) {
		n->sector = t->text + m.start[gs];
		n->sector_len = m.end[gs] - m.start[gs];
		n->sector_pos = hg_action_text_pos(t, m.start[gs]);
	}
	if (gm >= 0) {
		n->marker = t->text + m.start[gm];
		n->marker_len = m.end[gm] - m.start[gm];
		n->marker_pos = hg_action_text_pos(t, m.start[gm]);
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

/* parse's action, all zero, from the game's spare-action cache; NULL
 * short of memory (the unit of work reports it). */
static hg_action *parse_alloc(const hg_state *s)
{
	/* copied from a zero action: a clear of this size is a `rep stos`,
	 * whose start-up cost more than the rest of the parse */
	static const hg_action zero;
	hg_action *a = hg_action_cache_take(s->actions);
	if (!a)
		return NULL;
	*a = zero;
	a->home = s->actions;
	return a;
}

/* parse, with the canonical shape taken from the tokens (use_tokens) or
 * every action matched against its pattern (the unit tests compare the
 * two). */
static hg_action *parse_action(const hg_state *s, const hg_action_text *t, int use_tokens,
			       hg_diags *d)
{
	const hg_gdata *g = s->data;
	int seat = seat_of(s, t, d);
	int plain;
	int verb = verb_of(&g->grammar, t, &plain);
	slots n = { 0 };
	if (verb == VERB_NONE || !((use_tokens && plain && canonical_shape(t, verb, &n)) ||
				   pattern_shape(&g->grammar, t, verb, &n))) {
		syntax_error(t, verb, d);
		return NULL;
	}
	if (seat < 0)
		return NULL;
	/* What the verb uses is set below: card[i] and card_pos[i] for
	 * i < ncards, the sector for place and win, the marker for win; the
	 * rest stays zero (parse_alloc). */
	hg_action *a = parse_alloc(s);
	if (!a)
		return NULL;
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
		a->sector_pos = n.sector_pos;
		if (sector_of(g, n.sector, n.sector_len, n.sector_pos, &a->sector, d) != 0)
			rc = -1;
		break;
	case KOC_WIN:
		a->sector_pos = n.sector_pos;
		if (sector_of(g, n.sector, n.sector_len, n.sector_pos, &a->sector, d) != 0)
			rc = -1;
		a->marker_pos = n.marker_pos;
		if (number_of(n.marker, n.marker_len, n.marker_pos, KOC_SECTORS,
			      "koc.marker-number", "victory marker",
			      "Armies and domination in territories", &a->marker, d) != 0)
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
	if (a && a->home)
		hg_action_cache_give(a->home, a);
	else
		free(a);
}
