/* notation-tokens.c - Crusader Kingdoms: the action syntax read straight
 * from the action's tokens, the way ck_parse reads an action first.
 *
 * The patterns of notation.c match the action's text, its tokens joined
 * by single spaces, and every element of them (a keyword followed by a
 * space or the end, NAME = [^ ,/+=><@&|~^%?]+, \d+ in ASCII, '?', one
 * punctuation character) takes whole tokens: a word or a number is a
 * NAME, a number is \d+, the hidden token is '?'.  So in an action whose
 * text is plain ASCII (where caseless matching is ASCII case), each
 * pattern is a sequence of tokens, read here from left to right with one
 * token of look-ahead, in the same order of clauses (grammar/crusader-
 * kingdoms.ebnf).  The names are found through the spellings of the
 * canonical ids first (spellings.c).
 *
 * This reader only ever accepts: it stops (NULL) at anything the patterns
 * might read otherwise or that would be a diagnostic - text with other
 * bytes, a keyword where a name goes, an unknown name, a list too long, a
 * wrong count - and ck_parse then reads the action with the patterns,
 * which say what is wrong.  What it accepts, it builds exactly as the
 * patterns' reading does: the same values, positions and defaults
 * (test-ck.c cross-checks the two on many actions).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ck.h"

/* Longer actions are left to the patterns. */
#define MAX_TOKENS 1024

typedef struct reader {
	const hg_state *s;
	/* the spellings every name is looked up in, found once for the
	 * action: a lookup starts from its table, not from the state two
	 * or three loads away */
	const ck_spellings *cards, *areas, *seats;
	const hg_atok *tok;
	size_t n;		/* tokens */
	size_t i;		/* the next one */
	hg_action *a;		/* what is read */
	char *room;		/* the block of its lists (a->lists), taken at the
				   first: the spare action's, or a new one */
	size_t used, cap;
} reader;

/* Each element of a list takes a token (a response four, a modification
 * three), and each size is a multiple of 8, which keeps the alignment:
 * 24 bytes a token is room enough. */
#define ROOM_PER_TOKEN 24
_Static_assert(sizeof(ck_item) <= ROOM_PER_TOKEN && sizeof(ck_num) <= ROOM_PER_TOKEN &&
	       sizeof(ck_mod) <= 3 * ROOM_PER_TOKEN &&
	       sizeof(ck_response) <= 4 * ROOM_PER_TOKEN,
	       "a list element takes more room than its tokens allow");

/* Room for n elements of `size` bytes (NULL: none left, which the bound
 * above rules out). */
static void *take_room(reader *r, size_t n, size_t size)
{
	size_t at = (r->used + sizeof(uint64_t) - 1) & ~(sizeof(uint64_t) - 1);
	if (at + n * size > r->cap)
		return NULL;
	if (!r->room) {
		/* the spare block's room, if it is large enough */
		hg_action *a = r->a;
		if (!a->lists || a->lists_cap < r->cap) {
			free(a->lists);
			a->lists = hg_xmalloc(r->cap);
			a->lists_cap = r->cap;
		}
		r->room = a->lists;
	}
	r->used = at + n * size;
	return r->room + at;
}


/* Is the word w of len bytes the keyword kw (small letters) in any case
 * (ck_same_letters)?  No call for a short compare made at every clause. */
static inline int word_is(const char *w, size_t len, const char *kw, size_t kwlen)
{
	return len == kwlen && ck_same_letters(w, kw, len);
}

#define WORD_IS(w, len, kw) word_is((w), (len), kw, sizeof kw - 1)

/* Reads the word w (in lower case) if it comes next.  Each clause asks
 * for its own keyword (KW in notation.c) where the syntax allows it: a
 * compare of the token's length with the keyword's, nearly always
 * enough to say no, and of its bytes.  A token of another kind never
 * matches (a number, a '?' or a punctuation character is no keyword); a
 * token read as a name is never asked: the data keeps keywords out of
 * names (data.c, check_word), so a token that names something is no
 * keyword, and one that names nothing leaves the action to the patterns
 * whatever it is.  (A classifier of every token by its first two letters,
 * kept for the clauses that asked again, cost a mispredicted jump for
 * nearly every token it saw.) */
static inline HG_ALWAYS_INLINE int accept_word_n(reader *r, const char *w, size_t len)
{
	if (r->i < r->n && word_is(r->tok[r->i].text, r->tok[r->i].len, w, len)) {
		r->i++;
		return 1;
	}
	return 0;
}

#define accept_word(r, w) accept_word_n((r), w, sizeof w - 1)

static const hg_atok *peek(const reader *r)
{
	return r->i < r->n ? &r->tok[r->i] : NULL;
}

static int is_name(const hg_atok *t)
{
	return t->kind == HG_ATOK_WORD || t->kind == HG_ATOK_NUMBER;
}

/* Is the token the punctuation character c? */
static inline int is_punct(const hg_atok *t, char c)
{
	return t->kind == HG_ATOK_PUNCT && t->len == 1 && t->text[0] == c;
}

static inline int accept_punct(reader *r, char c)
{
	const hg_atok *t = peek(r);
	if (t && is_punct(t, c)) {
		r->i++;
		return 1;
	}
	return 0;
}

/* The next token as a name (a keyword fails to resolve as one), or NULL. */
static const hg_atok *take_name(reader *r)
{
	const hg_atok *t = peek(r);
	if (!t || !is_name(t))
		return NULL;
	r->i++;
	return t;
}

/* A number token's value, saturating past `cap` as notation.c reads it. */
static long number_value(const char *s, long cap)
{
	long v = 0;
	for (; *s; s++)
		if (v <= cap)
			v = v * 10 + (*s - '0');
	return v;
}

/* Longer numbers (leading zeros, or above the largest the patterns read)
 * are left to the patterns, which read their value or quote them in a
 * diagnostic (notation.c, number_fits). */
#define DIE_DIGITS 2
#define HITS_DIGITS 3

/* A die written as a number of at most DIE_DIGITS digits. */
static int die_number(const char *x, unsigned len)
{
	if (len == 1)
		return x[0] - '0';
	return (x[0] - '0') * 10 + (x[1] - '0');
}

/* Whether a die token is '?' or a number short enough for die_number. */
static int die_fits(const hg_atok *t)
{
	return t->kind == HG_ATOK_UNKNOWN || t->len <= DIE_DIGITS;
}

/* A die as written: '?' is CK_DIE_HIDDEN, a number die_number (0 too). */
static int die_value(const hg_atok *t)
{
	return t->kind == HG_ATOK_UNKNOWN ? CK_DIE_HIDDEN : die_number(t->text, t->len);
}

/* ------------------------------------------------------------------ names */
/* Each lookup below is written so that its common case, an id of 4 to 16
 * bytes (ck_spelling_find_n inline), makes no call that returns to it:
 * its other cases end in a tail call (a word of another length looked up
 * whole out of line, a spelling that is no id by the names tables).
 * With a call to come back from, each lookup saved and restored four to
 * six registers at every name. */
static int find_area_any(const reader *r, const hg_atok *t)
{
	const ck_spelling *e = ck_spelling_find_any(r->areas, t->text, t->len);
	return e ? e->value[0] : hg_names_find(r->s->map->names, t->text);
}

static int find_area(const reader *r, const hg_atok *t)
{
	if (!ck_spelling_inline_len(t->len))
		return find_area_any(r, t);
	const ck_spelling *e = ck_spelling_find_n(r->areas, t->text, t->len);
	return e ? e->value[0] : hg_names_find(r->s->map->names, t->text);
}

static int find_seat_any(const reader *r, const char *w, size_t len)
{
	const ck_spelling *e = ck_spelling_find_any(r->seats, w, len);
	return e ? e->value[0] : hg_names_find(r->s->sc->seats, w);
}

static int find_seat(const reader *r, const char *w, size_t len)
{
	if (!ck_spelling_inline_len(len))
		return find_seat_any(r, w, len);
	const ck_spelling *e = ck_spelling_find_n(r->seats, w, len);
	return e ? e->value[0] : hg_names_find(r->s->sc->seats, w);
}

/* A card spelled otherwise than its id (an alias, capitals, accents), by
 * the decks' names tables.  Out of line (and cold: records written by
 * herald spell ids). */
static __attribute__((cold, noinline)) int find_item_by_names(const reader *r, const char *w,
							       ck_item *it)
{
	for (int x = 0; x < CK_NRELIGIONS; x++)
		it->card[x] = (short)hg_names_find(r->s->data->decks[x].names, w);
	return it->card[0] >= 0 || it->card[1] >= 0 ? 0 : -1;
}

static int item_from(const ck_spelling *e, ck_item *it)
{
	it->card[0] = (short)e->value[0];
	it->card[1] = (short)e->value[1];
	return 0;
}

static __attribute__((noinline)) int find_item_any(const reader *r, const hg_atok *t,
						   ck_item *it)
{
	const ck_spelling *e = ck_spelling_find_any(r->cards, t->text, t->len);
	return e ? item_from(e, it) : find_item_by_names(r, t->text, it);
}

/* A card of either deck, or '?' (resolve_item: whose card it is matters
 * only to its diagnostics). */
static int find_item(const reader *r, const hg_atok *t, ck_item *it)
{
	it->pos = t->pos;
	it->card[0] = it->card[1] = -1;
	if (t->kind == HG_ATOK_UNKNOWN)
		return 0;
	if (!ck_spelling_inline_len(t->len))
		return find_item_any(r, t, it);
	const ck_spelling *e = ck_spelling_find_n(r->cards, t->text, t->len);
	/* a spelling names a card of some deck */
	return e ? item_from(e, it) : find_item_by_names(r, t->text, it);
}

static int name_area(reader *r, int *area, hg_pos *pos)
{
	const hg_atok *t = take_name(r);
	if (!t)
		return -1;
	*pos = t->pos;
	*area = find_area(r, t);
	return *area < 0 ? -1 : 0;
}

static int name_seat(reader *r, int *seat, hg_pos *pos)
{
	const hg_atok *t = take_name(r);
	if (!t)
		return -1;
	*pos = t->pos;
	*seat = find_seat(r, t->text, t->len);
	return *seat < 0 ? -1 : 0;
}

/* Room for a list from the next token on, as many elements as tokens
 * remain but at most one past the limit (*max); list_end gives back what
 * the list did not use. */
static void *list_room(reader *r, size_t size, size_t *max)
{
	*max = r->n - r->i < CK_MAX_LIST + 1 ? r->n - r->i : CK_MAX_LIST + 1;
	return *max ? take_room(r, *max, size) : NULL;
}

/* The list v of n elements ends: 0, or -1 when empty or too long. */
static int list_end(reader *r, const void *v, int n, size_t size)
{
	r->used = (size_t)((const char *)v - r->room) + (size_t)n * size;
	return n == 0 || n > CK_MAX_LIST ? -1 : 0;
}

/* Is the next token an item, '?' or a card (LITEM: a keyword ends the
 * list, and is no card)?  *it gets it. */
static int next_item(const reader *r, ck_item *it)
{
	const hg_atok *t = peek(r);
	return t && (t->kind == HG_ATOK_UNKNOWN || is_name(t)) && find_item(r, t, it) == 0;
}

/* LIST: one or more items (parse_items). */
static int read_items(reader *r, ck_items *out)
{
	size_t max;
	out->v = list_room(r, sizeof *out->v, &max);
	if (!out->v)
		return -1;
	out->given = 1;
	out->pos = r->tok[r->i].pos;
	for (; (size_t)out->n < max && next_item(r, &out->v[out->n]); out->n++)
		r->i++;
	return list_end(r, out->v, out->n, sizeof *out->v);
}

/* ------------------------------------------------------------ the attack */
/* ROLL: '?' or dice, then [mod FROM > TO ...], then [= HITS] (parse_roll). */
static int read_roll(reader *r, ck_roll *roll)
{
	const hg_atok *t = peek(r);
	if (!t)
		return -1;
	roll->pos = t->pos;
	roll->hits = -1;
	roll->given = t->kind != HG_ATOK_UNKNOWN;
	if (!roll->given) {
		r->i++;
	} else {
		/* the dice: the run of numbers, read in one pass into room
		 * for as many as may follow (list_room) */
		const hg_atok *run = &r->tok[r->i];
		size_t max, k = 0;
		ck_num *dice = list_room(r, sizeof *roll->dice, &max);
		if (!dice)
			return -1;
		for (; k < max && run[k].kind == HG_ATOK_NUMBER; k++) {
			/* the token read once, before the stores (which
			 * might alias it, for all the compiler knows) */
			const char *x = run[k].text;
			unsigned len = run[k].len;
			hg_pos pos = run[k].pos;
			if (len > DIE_DIGITS)
				return -1;
			dice[k].pos = pos;
			dice[k].v = die_number(x, len);
		}
		if (list_end(r, dice, (int)k, sizeof *dice) != 0)
			return -1;
		roll->dice = dice;
		roll->ndice = (int)k;
		r->i += k;
	}
	if (accept_word(r, "mod")) {
		size_t k = r->i;
		while (k + 2 < r->n && r->tok[k].kind == HG_ATOK_NUMBER &&
		       r->tok[k + 2].kind == HG_ATOK_NUMBER) {
			const hg_atok *gt = &r->tok[k + 1];
			if (!is_punct(gt, '>'))
				break;
			k += 3;
		}
		k = (k - r->i) / 3;
		if (k == 0 || k > CK_MAX_LIST)
			return -1;
		roll->mods = take_room(r, k, sizeof *roll->mods);
		if (!roll->mods)
			return -1;
		for (; k > 0; k--, r->i += 3) {
			if (r->tok[r->i].len > DIE_DIGITS || r->tok[r->i + 2].len > DIE_DIGITS)
				return -1;
			ck_mod *md = &roll->mods[roll->nmods++];
			md->pos = r->tok[r->i].pos;
			md->from = (int)number_value(r->tok[r->i].text, 99);
			md->to = (int)number_value(r->tok[r->i + 2].text, 99);
		}
	}
	if (accept_punct(r, '=')) {
		t = peek(r);
		if (!t || t->kind != HG_ATOK_NUMBER || t->len > HITS_DIGITS)
			return -1;
		r->i++;
		roll->hits_pos = t->pos;
		roll->hits = (int)number_value(t->text, 999);
	}
	return 0;
}

/* & SEAT CARD SIDE, any number of them (resp_token). */
static int read_responses(reader *r, ck_attack *a)
{
	size_t k = r->i, nresp = 0;
	while (k + 3 < r->n && is_punct(&r->tok[k], '&') &&
	       is_name(&r->tok[k + 1]) && is_name(&r->tok[k + 2]) && is_name(&r->tok[k + 3])) {
		k += 4;
		nresp++;
	}
	if (nresp == 0)
		return 0;
	if (nresp > CK_MAX_LIST)
		return -1;
	a->resp = take_room(r, nresp, sizeof *a->resp);
	if (!a->resp)
		return -1;
	for (; nresp > 0; nresp--, r->i += 4) {
		const hg_atok *t = &r->tok[r->i];
		ck_response *rp = &a->resp[a->nresp];
		rp->pos = t[0].pos;
		rp->seat = find_seat(r, t[1].text, t[1].len);
		if (rp->seat < 0 || find_item(r, &t[2], &rp->card) != 0)
			return -1;
		size_t n = t[3].len;
		if (WORD_IS(t[3].text, n, "attack"))
			rp->side = CK_SIDE_ATTACK;
		else if (WORD_IS(t[3].text, n, "defence") || WORD_IS(t[3].text, n, "defense"))
			rp->side = CK_SIDE_DEFENCE;
		else
			return -1;
		a->nresp++;
	}
	return 0;
}

/* turn AREA...: each castle once (turn_token). */
static int read_turned(reader *r, ck_attack *a)
{
	size_t max;
	a->turned = list_room(r, sizeof *a->turned, &max);
	if (!a->turned)
		return -1;
	for (; (size_t)a->nturned < max && is_name(&r->tok[r->i]); a->nturned++) {
		const hg_atok *t = &r->tok[r->i];
		ck_num *n = &a->turned[a->nturned];
		n->pos = t->pos;
		n->v = find_area(r, t);
		if (n->v < 0)
			break;	/* a keyword, or the patterns' to read */
		for (int i = 0; i < a->nturned; i++)
			if (a->turned[i].v == n->v)
				return -1;
		r->i++;
	}
	return list_end(r, a->turned, a->nturned, sizeof *a->turned);
}

/* Rules 4.1, 4.2: attack AREA [from AREA] [with CARD...] {& SEAT CARD
 * SIDE} [turn AREA...] / ROLL vs ROLL / (won [bonus | castle AREA] | lost),
 * to the end of the action (parse_attack). */
static int read_attack(reader *r, ck_attack *a)
{
	if (!accept_word(r, "attack"))
		return -1;
	a->castle = -1;
	a->from = -1;
	if (name_area(r, &a->target, &a->target_pos) != 0)
		return -1;
	if (accept_word(r, "from") && name_area(r, &a->from, &a->from_pos) != 0)
		return -1;
	if (accept_word(r, "with")) {
		size_t max;
		a->with = list_room(r, sizeof *a->with, &max);
		if (!a->with)
			return -1;
		a->with_pos = r->tok[r->i].pos;
		for (; (size_t)a->nwith < max && next_item(r, &a->with[a->nwith]); a->nwith++) {
			/* '?': the cards are named before the combat */
			if (r->tok[r->i].kind == HG_ATOK_UNKNOWN)
				return -1;
			r->i++;
		}
		if (list_end(r, a->with, a->nwith, sizeof *a->with) != 0)
			return -1;
	}
	if (read_responses(r, a) != 0)
		return -1;
	if (accept_word(r, "turn") && read_turned(r, a) != 0)
		return -1;
	if (!accept_punct(r, '/') || read_roll(r, &a->roll[0]) != 0 || !accept_word(r, "vs") ||
	    read_roll(r, &a->roll[1]) != 0 || !accept_punct(r, '/'))
		return -1;
	const hg_atok *t = peek(r);
	a->won = accept_word(r, "won");
	if (!a->won && !accept_word(r, "lost"))
		return -1;
	a->outcome_pos = t->pos;
	t = peek(r);
	int castle = accept_word(r, "castle");
	if (castle || accept_word(r, "bonus")) {
		a->castle_pos = t->pos;
		/* 'castle' takes the area, 'bonus' none (the end follows) */
		a->choice = castle ? CK_CHOICE_CASTLE : CK_CHOICE_BONUS;
		if (a->choice == CK_CHOICE_CASTLE && name_area(r, &a->castle, &a->castle_pos) != 0)
			return -1;
	} else {
		a->castle_pos = a->outcome_pos;
	}
	return r->i == r->n ? 0 : -1;
}

/* -------------------------------------------------------------- the rest */
/* Rule 3, step 1: draw [N] [ITEM...] (parse_draw). */
static int read_draw(reader *r, hg_action *a)
{
	const hg_atok *count = peek(r);
	if (count && count->kind == HG_ATOK_NUMBER)
		r->i++;
	else
		count = NULL;
	if (r->i < r->n && read_items(r, &a->draw) != 0)
		return -1;
	if (count) {
		if (count->len > 3)
			return -1;
		long n = number_value(count->text, CK_MAX_DECK);
		if (n > CK_MAX_DECK)
			return -1;
		a->draw.given = 1;
		a->draw.count = (int)n;
		a->draw.pos = count->pos;
		/* a count goes with '?' only */
		if (a->draw.n > 1 || (a->draw.n == 1 && (a->draw.v[0].card[0] >= 0 ||
							a->draw.v[0].card[1] >= 0)))
			return -1;
	}
	return 0;
}

/* Rule 4.3: incursion SEAT with ITEM [/ DIE] [discards ITEM...]. */
static int read_incursion(reader *r, hg_action *a)
{
	ck_incursion *in = &a->inc;
	in->discards.count = -1;
	if (name_seat(r, &in->target, &in->target_pos) != 0 || !accept_word(r, "with"))
		return -1;
	if (!next_item(r, &in->card))
		return -1;
	r->i++;
	if (accept_punct(r, '/')) {
		const hg_atok *t = peek(r);
		if (!t || (t->kind != HG_ATOK_NUMBER && t->kind != HG_ATOK_UNKNOWN) || !die_fits(t))
			return -1;
		r->i++;
		in->die_pos = t->pos;
		in->die = die_value(t);
	}
	if (accept_word(r, "discards") && read_items(r, &in->discards) != 0)
		return -1;
	return 0;
}

/* The arguments of an event (rule 4.4), as play and reveal write them:
 * [on SEAT] [at AREA] [draws ITEM...] (play only) [takes ITEM...]
 * [discards ITEM...] [castle AREA...]. */
static int read_effect_args(reader *r, int draws, ck_play *p)
{
	p->on = p->at = p->castle = -1;
	p->draws.count = p->takes.count = p->discards.count = -1;
	if (accept_word(r, "on") && name_seat(r, &p->on, &p->on_pos) != 0)
		return -1;
	if (accept_word(r, "at") && name_area(r, &p->at, &p->at_pos) != 0)
		return -1;
	if ((draws && accept_word(r, "draws") && read_items(r, &p->draws) != 0) ||
	    (accept_word(r, "takes") && read_items(r, &p->takes) != 0) ||
	    (accept_word(r, "discards") && read_items(r, &p->discards) != 0))
		return -1;
	if (accept_word(r, "castle")) {
		if (name_area(r, &p->castle, &p->castle_pos) != 0)
			return -1;
		/* the further steps' castles: areas up to the next keyword
		 * (no area is named as one); more than the patterns take is
		 * left to them */
		for (const hg_atok *t; (t = peek(r)) && is_name(t);) {
			int x = find_area(r, t);
			if (x < 0 || p->nmore == CK_MAX_GAIN - 1)
				break;
			p->more_castles[p->nmore] = x;
			p->more_pos[p->nmore++] = t->pos;
			r->i++;
		}
	}
	return 0;
}

/* Rule 4.4: play CARD, its arguments, [attack ...]. */
static int read_play(reader *r, hg_action *a)
{
	ck_play *pl = &a->play;
	const hg_atok *t = take_name(r);
	if (!t || find_item(r, t, &pl->card) != 0 || read_effect_args(r, 1, pl) != 0)
		return -1;
	if (r->i < r->n) {
		pl->has_attack = 1;
		return read_attack(r, &pl->attack);
	}
	return 0;
}

/* Rule 8.3: reveal CARD, its arguments, [army | response | discarded],
 * [/ DIE [attack ...]]. */
static int read_reveal(reader *r, hg_action *a)
{
	ck_reveal *rv = &a->rev;
	const hg_atok *t = take_name(r);
	if (!t || find_item(r, t, &rv->card) != 0 || read_effect_args(r, 0, &rv->args) != 0)
		return -1;
	t = peek(r);
	int place = accept_word(r, "army") ? CK_PLACE_ARMY :
		    accept_word(r, "response") ? CK_PLACE_RESPONSE :
		    accept_word(r, "discarded") ? CK_PLACE_DISCARDED : CK_PLACE_NONE;
	if (place != CK_PLACE_NONE) {
		rv->place_pos = t->pos;
		rv->place = place;
	}
	if (accept_punct(r, '/')) {
		t = peek(r);
		if (!t || (t->kind != HG_ATOK_NUMBER && t->kind != HG_ATOK_UNKNOWN) || !die_fits(t))
			return -1;
		r->i++;
		rv->die_pos = t->pos;
		rv->die = die_value(t);
		if (r->i < r->n) {
			rv->has_attack = 1;
			return read_attack(r, &rv->attack);
		}
	}
	return 0;
}

hg_action *hg_ck_parse_tokens(const hg_state *s, const hg_action_text *t)
{
	if (t->ntoks == 0 || !t->text || !t->ascii)
		return NULL;
	if (t->ntoks > MAX_TOKENS)
		return NULL;
	reader r;
	r.s = s;
	r.cards = &s->data->card_spell;
	r.areas = &s->map->spell;
	r.seats = &s->sc->spell;
	/* the seat's length comes with it (herald.h: seat_len, its strlen) */
	int seat = t->seat ? find_seat(&r, t->seat, t->seat_len) : find_seat(&r, "", 0);
	if (seat < 0)
		return NULL;
	r.tok = t->toks;
	r.n = t->ntoks;
	r.i = 1;
	r.room = NULL;
	r.used = 0;
	r.cap = r.n * ROOM_PER_TOKEN;
	/* The first word says which action it is, and the case for it reads
	 * the rest: one jump on the word, not a second one on the kind. */
	const char *first = t->toks[0].text;
	size_t len = t->toks[0].len;
	hg_action *a = NULL;
	int rc = -1;
	switch (*first | 0x20) {
	case 'a':
		if (WORD_IS(first, len, "attack")) {
			a = r.a = ck_parse_alloc(s, CK_ACT_ATTACK, seat);
			r.i = 0;
			rc = read_attack(&r, &a->attack);
		}
		break;
	case 'd':
		if (WORD_IS(first, len, "draw")) {
			a = r.a = ck_parse_alloc(s, CK_ACT_DRAW, seat);
			rc = read_draw(&r, a);
		} else if (WORD_IS(first, len, "discard")) {
			a = r.a = ck_parse_alloc(s, CK_ACT_DISCARD, seat);
			if (next_item(&r, &a->discard)) {
				r.i++;
				rc = 0;
			}
		}
		break;
	case 'i':
		if (WORD_IS(first, len, "incursion")) {
			a = r.a = ck_parse_alloc(s, CK_ACT_INCURSION, seat);
			rc = read_incursion(&r, a);
		}
		break;
	case 'p':
		if (WORD_IS(first, len, "pass")) {
			a = r.a = ck_parse_alloc(s, CK_ACT_PASS, seat);
			a->end = accept_word(&r, "end");
			rc = 0;
		} else if (WORD_IS(first, len, "play")) {
			a = r.a = ck_parse_alloc(s, CK_ACT_PLAY, seat);
			rc = read_play(&r, a);
		}
		break;
	case 'r':
		if (WORD_IS(first, len, "reveal")) {
			a = r.a = ck_parse_alloc(s, CK_ACT_REVEAL, seat);
			rc = read_reveal(&r, a);
		}
		break;
	}
	if (!a)
		return NULL;
	if (rc != 0 || r.i != r.n) {
		ck_free_action(a);
		return NULL;
	}
	a->pos = t->pos;
	a->seat_pos = t->seat_pos.line ? t->seat_pos : t->pos;
	return a;
}
