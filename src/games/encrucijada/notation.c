/* notation.c - Encrucijada's action reader (grammar/encrucijada.ebnf): one
 * reader over the action's tokens, one case for each production of the
 * grammar, which also says what is wrong.  Parsing consults only the
 * set-up (seats, card pool), never the position.  Keywords are compared
 * as names are (hg_name_eq: without regard to case and accents); Spanish
 * verbs and keywords are aliases of the English ones, which the writer
 * (notation-write.c) writes. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "enc.h"

/* The productions of `action`, by their verbs. */
enum {
	V_SETUP, V_DRAW, V_PUT, V_SHOW, V_TAKE, V_MOVE, V_USE, V_PASS, V_WAR,
	V_DEFEND, V_YIELD, V_ARMY, V_REVEAL, V_FIGHT, V_TARGET, V_RETARGET,
	V_FORCE, V_REGROUP, V_END
};

/* Every verb the grammar gives, English first (the one written): the only
 * list of them.  "ejercito" stands for "ejército" too (hg_name_eq). */
static const struct verb_word {
	const char *word;
	unsigned char verb;
} verb_words[] = {
	{ "setup", V_SETUP }, { "preparar", V_SETUP },
	{ "draw", V_DRAW }, { "robar", V_DRAW },
	{ "put", V_PUT }, { "bajar", V_PUT },
	{ "show", V_SHOW }, { "mostrar", V_SHOW },
	{ "take", V_TAKE }, { "tomar", V_TAKE },
	{ "move", V_MOVE }, { "mover", V_MOVE },
	{ "use", V_USE }, { "usar", V_USE },
	{ "pass", V_PASS }, { "pasar", V_PASS },
	{ "war", V_WAR }, { "guerra", V_WAR },
	{ "defend", V_DEFEND }, { "defender", V_DEFEND },
	{ "yield", V_YIELD }, { "invadir", V_YIELD },
	{ "army", V_ARMY }, { "ejercito", V_ARMY },
	{ "reveal", V_REVEAL }, { "revelar", V_REVEAL },
	{ "fight", V_FIGHT }, { "batalla", V_FIGHT }, { "batallar", V_FIGHT },
	{ "target", V_TARGET }, { "objetivo", V_TARGET },
	{ "retarget", V_RETARGET }, { "cambiar", V_RETARGET },
	{ "force", V_FORCE }, { "obligar", V_FORCE },
	{ "regroup", V_REGROUP }, { "withdraw", V_REGROUP }, { "reagrupar", V_REGROUP },
	{ "retirar", V_REGROUP },
	{ "end", V_END }, { "fin", V_END },
};

/* Room in the verb index for the longest verb and its NUL. */
#define VERB_MAX 12
#define VERB_SEVERAL 0xff

/* The verbs indexed for verb_of, built at load from verb_words.  A verb
 * that does not fit the index (longer than VERB_MAX - 1, or past its 64
 * places) is left out of it and still found, by name (verb_by_name): the
 * index only makes the common case quick. */
struct enc_verbs {
	/* The verbs, lowercase ASCII, and the verbs (bits by index) by their
	 * first letter, their second and their length: verb_of reads an
	 * action's first word against the verbs in all three, mostly one or
	 * none.  Three small tables rather than one by the pair of letters:
	 * read for every action, they stay in the cache. */
	struct verb {
		char word[VERB_MAX];
		unsigned char len, verb;
		/* A verb of 3 to 8 letters as two words of four bytes, from
		 * its start and from tail_at (the last four; a verb of three
		 * is read with the byte after it, a space or the NUL). */
		unsigned char tail_at;
		uint32_t head, tail;
	} verb[64];
	int nverbs;
	uint64_t verbs_by_first[26], verbs_by_second[26];
	uint64_t verbs_by_len[VERB_MAX];
	/* By the first letter and the length, the one verb of up to 8
	 * letters there is (its index + 1), 0 for none, VERB_SEVERAL for
	 * more (fight and force; regroup, retirar and revelar) or a longer
	 * one: most actions' verb is then found with one read of this small
	 * table and one of the verb. */
	unsigned char verb_at[26][VERB_MAX];
};
_Static_assert(HG_ARRAY_LEN(verb_words) <= 64, "enc_verbs holds a bit per verb");

static int ascii_lower(char c)
{
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'z' ? c : -1;
}

/* Can `w` be indexed: 3 to VERB_MAX - 1 lowercase ASCII letters? */
static int indexable(const char *w)
{
	size_t len = strlen(w);
	if (len < 3 || len >= VERB_MAX)
		return 0;
	for (size_t k = 0; k < len; k++)
		if (w[k] < 'a' || w[k] > 'z')
			return 0;
	return 1;
}

static void index_verb(enc_verbs *vs, const struct verb_word *vw)
{
	if (!indexable(vw->word) || vs->nverbs >= (int)HG_ARRAY_LEN(vs->verb))
		return;		/* verb_by_name finds it */
	size_t len = strlen(vw->word);
	struct verb *vb = &vs->verb[vs->nverbs];
	memcpy(vb->word, vw->word, len + 1);
	vb->len = (unsigned char)len;
	vb->verb = vw->verb;
	char key[VERB_MAX + 4] = { 0 };
	memcpy(key, vb->word, len);
	key[len] = ' ';
	vb->tail_at = (unsigned char)(len >= 4 ? len - 4 : 0);
	memcpy(&vb->head, key, 4);
	memcpy(&vb->tail, key + vb->tail_at, 4);
	vs->verbs_by_first[vb->word[0] - 'a'] |= (uint64_t)1 << vs->nverbs;
	vs->verbs_by_second[vb->word[1] - 'a'] |= (uint64_t)1 << vs->nverbs;
	vs->verbs_by_len[len] |= (uint64_t)1 << vs->nverbs;
	unsigned char *at = &vs->verb_at[vb->word[0] - 'a'][len];
	*at = *at == 0 && len <= 8 ? (unsigned char)(vs->nverbs + 1) : VERB_SEVERAL;
	vs->nverbs++;
}

enc_verbs *enc_verbs_new(void)
{
	enc_verbs *vs = hg_xcalloc(1, sizeof *vs);
	for (size_t i = 0; i < HG_ARRAY_LEN(verb_words); i++)
		index_verb(vs, &verb_words[i]);
	return vs;
}

void enc_verbs_free(enc_verbs *vs)
{
	free(vs);
}

/* ------------------------------------------------------------ reader */
/* The parts of an action the reader finds, by number (at most three after
 * the verb): the token each is, or -1. */
#define PARTS 4

typedef struct pctx {
	const hg_state *s;
	const hg_action_text *t;
	hg_diags *d;
	int ascii;		/* the text is plain ASCII */
	signed char part[PARTS];
	size_t rest;		/* where a setup's cards, a use's choices begin */
	int visible;		/* put: the keyword was "visible" */
} pctx;

/* Is token k the keyword `lower` (small letters, ASCII)?  In a plain ASCII
 * text by ASCII case (hg_ascii_same: no call, no loop for the words
 * asked); else as names are compared. */
static inline int word_is(const pctx *c, size_t k, const char *lower)
{
	const hg_atok *tk = &c->t->toks[k];
	if (c->ascii) {
		size_t n = strlen(lower);
		return tk->len == n && hg_ascii_same(tk->text, lower, n, 0x20);
	}
	return hg_name_eq(tk->text, lower);
}

/* Is token k the one character ch? */
static int word_is_char(const pctx *c, size_t k, char ch)
{
	const char *p = c->t->toks[k].text;
	return p[0] == ch && !p[1];
}

/* stack: one ASCII letter, whatever its case (the grammar's "a to z": not
 * the Kelvin sign or the long s, which fold to k and s). */
static int word_is_letter(const pctx *c, size_t k)
{
	const char *p = c->t->toks[k].text;
	return ascii_lower(p[0]) >= 0 && !p[1];
}

/* stack ref: a letter, then nothing or '.' and one or more digits. */
static int is_ref_text(const char *p)
{
	if (ascii_lower(*p) < 0)
		return 0;
	if (!*++p)
		return 1;
	if (*p != '.' || !*++p)
		return 0;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

static int word_is_ref(const pctx *c, size_t k)
{
	return is_ref_text(c->t->toks[k].text);
}

/* Part g is token k. */
static void set_part(pctx *c, int g, size_t k)
{
	c->part[g] = (signed char)k;
}

/* Is the word at p, as long as verb v (3 to 8 letters), v?  By words,
 * without a loop whose end the processor mispredicts: each byte | 0x20
 * turns a capital into its small letter and no other byte into a letter;
 * after a word of three comes a space or the NUL, both 0x20 so (bytes
 * the text has: the word's and one more). */
static inline int verb_words_same(const struct verb *v, const char *p)
{
	uint32_t x, y;
	memcpy(&x, p, 4);
	memcpy(&y, p + v->tail_at, 4);
	return ((x | 0x20202020u) == v->head) & ((y | 0x20202020u) == v->tail);
}

/* The verb token 0 is by the index, or -1: the one verb that begins with
 * its first letter and is as long, or among those that begin with its
 * first two letters and are as long.  Inline: every action asks. */
static inline HG_ALWAYS_INLINE int verb_of(const enc_verbs *vs, const hg_action_text *t)
{
	const char *p = t->text;
	int a = ascii_lower(p[0]), b = ascii_lower(p[1]);
	size_t len0 = t->toks[0].len;
	if (a < 0 || b < 0 || len0 >= VERB_MAX)
		return -1;
	int at = vs->verb_at[a - 'a'][len0];
	if (at != VERB_SEVERAL) {
		/* The one verb there can be (or none): its words hold all
		 * of it, the first two letters too. */
		if (at == 0)
			return -1;
		const struct verb *v = &vs->verb[at - 1];
		return verb_words_same(v, p) ? v->verb : -1;
	}
	/* The first two letters are the pair's, the length the verb's:
	 * compare the rest. */
	uint64_t try = vs->verbs_by_first[a - 'a'] & vs->verbs_by_second[b - 'a'] &
		       vs->verbs_by_len[len0];
	for (; try; try &= try - 1) {
		const struct verb *v = &vs->verb[enc_set_first(try)];
		if (v->len <= 8) {
			if (verb_words_same(v, p))
				return v->verb;
			continue;
		}
		size_t i = 2;
		while (i < v->len && (p[i] | 0x20) == v->word[i])
			i++;
		if (i == v->len)
			return v->verb;
	}
	return -1;
}

/* The verb a word is, as names are compared, or -1: for a verb spelt
 * with accents or other capitals than ASCII's, or one the index left
 * out.  Off the common path. */
static ENC_NOINLINE int verb_by_name(const char *w)
{
	for (size_t i = 0; i < HG_ARRAY_LEN(verb_words); i++)
		if (hg_name_eq(w, verb_words[i].word))
			return verb_words[i].verb;
	return -1;
}

/* Reads the shape of an action (grammar/encrucijada.ebnf, a case for each
 * production): which production it is, and its parts in c->part; -1 when
 * it is none (the verb unknown, or the words after it in no shape of
 * that verb's).  What the parts say (a card, a seat) is read after,
 * by parse_body.  Inline in parse_action, which every action goes
 * through. */
static inline HG_ALWAYS_INLINE int read_shape(const enc_verbs *vs, pctx *c)
{
	const hg_action_text *t = c->t;
	size_t n = t->ntoks;
	memset(c->part, -1, sizeof c->part);
	if (n == 0 || !t->text)
		return -1;
	int which = verb_of(vs, t);
	if (which < 0)
		which = verb_by_name(t->toks[0].text);
	int ok = 0;
	switch (which) {
	case V_SETUP:		/* verb pile {item card} */
	case V_DRAW:		/* verb pile [item card] */
		ok = n >= 2 && (which == V_SETUP || n <= 3) &&
		     t->toks[1].text[0] >= '1' && t->toks[1].text[0] <= '3' && !t->toks[1].text[1];
		if (!ok)
			break;
		set_part(c, 1, 1);
		if (which == V_SETUP)
			c->rest = 2;
		else if (n == 3)
			set_part(c, 2, 2);
		break;
	case V_PUT:		/* verb item card ("visible" | hidden word [stack ref]) */
		if (n < 3 || n > 4)
			break;
		c->visible = word_is(c, 2, "visible");
		ok = (n == 3 || word_is_ref(c, 3)) &&
		     (c->visible || word_is(c, 2, "hidden") || word_is(c, 2, "oculta") ||
		      word_is(c, 2, "oculto"));
		if (!ok)
			break;
		set_part(c, 1, 1);
		set_part(c, 2, 2);
		if (n == 4)
			set_part(c, 3, 3);
		break;
	case V_SHOW:		/* verb stack ref [card] */
	case V_TAKE:
		ok = (n == 2 || n == 3) && word_is_ref(c, 1);
		if (!ok)
			break;
		set_part(c, 1, 1);
		if (n == 3)
			set_part(c, 2, 2);
		break;
	case V_MOVE:		/* verb stack ref stack ref */
		ok = n == 3 && word_is_ref(c, 1) && word_is_ref(c, 2);
		if (!ok)
			break;
		set_part(c, 1, 1);
		set_part(c, 2, 2);
		break;
	case V_USE:		/* verb source [> seat] rest: a '>' with no word after is rest */
		ok = n >= 2;
		if (!ok)
			break;
		set_part(c, 1, 1);
		if (n >= 4 && word_is_char(c, 2, '>')) {
			set_part(c, 2, 3);
			c->rest = 4;
		} else {
			c->rest = 2;
		}
		break;
	case V_PASS:		/* the verb alone */
	case V_DEFEND:
	case V_YIELD:
	case V_FIGHT:
	case V_REGROUP:
	case V_END:
		ok = n == 1;
		break;
	case V_WAR:		/* verb seat */
	case V_RETARGET:	/* verb card */
		ok = n == 2;
		if (ok)
			set_part(c, 1, 1);
		break;
	case V_ARMY:		/* verb stack */
		ok = n == 2 && word_is_letter(c, 1);
		if (ok)
			set_part(c, 1, 1);
		break;
	case V_REVEAL:		/* verb [card] */
		ok = n <= 2;
		if (ok && n == 2)
			set_part(c, 1, 1);
		break;
	case V_TARGET:		/* verb (tower | army stack | card): parts 1, 2, 3 */
		if (n == 2) {
			ok = 1;
			set_part(c, word_is(c, 1, "tower") || word_is(c, 1, "torre") ? 1 : 3, 1);
		} else if (n == 3) {
			ok = (word_is(c, 1, "army") || word_is(c, 1, "ejercito")) &&
			     word_is_letter(c, 2);
			if (ok)
				set_part(c, 2, 2);
		}
		break;
	case V_FORCE:		/* verb (stack ref [card] | card): parts 1, 2 or 3 */
		if (n == 2) {
			ok = 1;
			set_part(c, word_is_ref(c, 1) ? 1 : 3, 1);
		} else if (n == 3) {
			ok = word_is_ref(c, 1);
			if (ok) {
				set_part(c, 1, 1);
				set_part(c, 2, 2);
			}
		}
		break;
	}
	return ok ? which : -1;
}

static const hg_action blank_action = { .card = -1, .other = -1, .army = -1, .src_card = -1 };

/* An action with room for `items` items and outcome parts after it
 * (hg_action.items).  Only the action itself is cleared: every item and
 * part is written whole before it is counted. */
static void action_init(hg_action *a, enc_act_kind kind, int seat, size_t items)
{
	/* Copied from a blank one: cleared in place, the action took a
	 * `rep stos` of its 29 words, which costs more than a copy. */
	memcpy(a, &blank_action, sizeof *a);
	a->kind = kind;
	a->seat = seat;
	a->items = (enc_item *)(void *)(a + 1);
	a->out = (enc_outcome *)(void *)(a->items + items);
}

#define ACTION_SIZE(items, outs) \
	(sizeof(hg_action) + (items) * sizeof(enc_item) + (outs) * sizeof(enc_outcome))

size_t enc_action_size(void)
{
	return ACTION_SIZE(ENC_MAX_ITEMS, ENC_MAX_OUTCOME);
}

void enc_action_reset(hg_action *a, enc_act_kind kind, int seat)
{
	action_init(a, kind, seat, ENC_MAX_ITEMS);
	memset(a->items, 0, ENC_MAX_ITEMS * sizeof a->items[0]);
	memset(a->out, 0, ENC_MAX_OUTCOME * sizeof a->out[0]);
}

hg_action *enc_action_new(enc_act_kind kind, int seat)
{
	hg_action *a = hg_xmalloc(enc_action_size());
	enc_action_reset(a, kind, seat);
	return a;
}

hg_action *enc_action_try_copy(const hg_action *a)
{
	hg_action *c = hg_try_malloc(enc_action_size());
	if (!c)
		return NULL;
	memcpy(c, a, enc_action_size());
	c->items = (enc_item *)(void *)(c + 1);
	c->out = (enc_outcome *)(void *)(c->items + ENC_MAX_ITEMS);
	c->home = NULL;
	return c;
}

hg_action_cache *enc_action_cache_new(void)
{
	return hg_action_cache_new(ACTION_SIZE(ENC_MAX_ITEMS, ENC_MAX_OUTCOME));
}

/* enc_parse's action, from the game's spare-action cache: every block has
 * room for the most items and parts a use takes, so that any will do for
 * the next.  NULL short of memory (the unit of work reports it). */
static hg_action *parse_alloc(const hg_state *s, int seat)
{
	hg_action *a = hg_action_cache_take(s->sh->actions);
	if (!a)
		return NULL;
	action_init(a, ENC_A_SETUP, seat, ENC_MAX_ITEMS);
	a->home = s->sh->actions;
	return a;
}

void enc_free_action(hg_action *a)
{
	if (a && a->home)
		hg_action_cache_give(a->home, a);
	else
		free(a);
}

/* ------------------------------------------------------------ pieces */
/* Was part g found? */
static int has_part(const pctx *c, int g)
{
	return c->part[g] >= 0;
}

static hg_pos part_pos(const pctx *c, int g)
{
	return c->t->toks[c->part[g]].pos;
}

/* The text of part g (which was found): its token's. */
static inline const char *part_text(const pctx *c, int g)
{
	return c->t->toks[c->part[g]].text;
}

static inline size_t part_len(const pctx *c, int g)
{
	return c->t->toks[c->part[g]].len;
}

/* Says that w (found as card k, or -1) names no card an action takes. */
static ENC_NOINLINE void unknown_card(const pctx *c, const char *w, int k, hg_pos pos)
{
	const enc_pool *pool = &c->s->data->pool;
	hg_diag *dg = hg_diag_add(c->d, HG_ERROR, pos, "enc.unknown-card",
				  "unknown card '%s'", w);
	if (k < 0)
		enc_suggest_cards(pool, w, dg);
	else
		hg_diag_note(dg, "'%s' is a tower: a tower's effect is used as 'use tower'", w);
}

/* A card name of `len` bytes or '?' (-2); -1 after a diagnostic.  Inline
 * (the diagnostic apart): most actions name a card. */
static inline HG_ALWAYS_INLINE int card_word(const pctx *c, const char *w, size_t len, hg_pos pos)
{
	if (w[0] == '?' && !w[1])
		return -2;
	const enc_pool *pool = &c->s->data->pool;
	int k = enc_find_card_n(pool, w, len);
	if (k >= 0 && !pool->cards[k].tower)
		return k;
	unknown_card(c, w, k, pos);
	return -1;
}

static int card_part(const pctx *c, int g, int *out, hg_pos *pos)
{
	*out = -1;
	if (!has_part(c, g))
		return 0;
	*pos = part_pos(c, g);
	if (c->t->toks[c->part[g]].kind == HG_ATOK_PUNCT) {
		/* the grammar's card is a word */
		hg_diag_add(c->d, HG_ERROR, *pos, "enc.syntax", "'%s' is no card", part_text(c, g));
		return -1;
	}
	int k = card_word(c, part_text(c, g), part_len(c, g), *pos);
	if (k == -1)
		return -1;
	*out = k;
	return 0;
}

static int seat_word(const pctx *c, const char *w, hg_pos pos)
{
	int seat = enc_find_seat(c->s, w);
	if (seat < 0) {
		hg_diag *dg = hg_diag_add(c->d, HG_ERROR, pos, "enc.unknown-seat",
					  "unknown seat '%s'", w);
		hg_diag_note(dg, "the seats are P1 to P%d, or the players' names", c->s->nseats);
	}
	return seat;
}

/* "b" is stack b, top; "b.3" its third card from the top.  Inline: a
 * show, a take, a move and many a put name a stack. */
static inline HG_ALWAYS_INLINE void parse_ref(const char *w, hg_pos pos, enc_item *it)
{
	memset(it, 0, sizeof *it);
	it->kind = ENC_ITEM_REF;
	char first = w[0];
	if (first >= 'A' && first <= 'Z')
		first = (char)(first - 'A' + 'a');
	it->stack = (signed char)(first - 'a');
	int at = w[1] == '.' ? atoi(w + 2) : 0;
	it->pos = (signed char)(at > 99 ? 99 : at);
	it->inst = -1;
	it->where = pos;
}

/* A position "b.0" is none: positions count from 1. */
static int ref_at(const pctx *c, const char *w, hg_pos pos, enc_item *it)
{
	parse_ref(w, pos, it);
	if (it->pos == 0 && w[1] == '.') {
		hg_diag_add(c->d, HG_ERROR, pos, "enc.syntax",
			    "stack positions count from 1 (the top)");
		return -1;
	}
	return 0;
}

/* Part g, a stack ref (read_shape found one ASCII letter, then nothing or
 * '.' and digits). */
static int ref_part(const pctx *c, int g, enc_item *it)
{
	return ref_at(c, part_text(c, g), part_pos(c, g), it);
}

/* ------------------------------------------------------------ use */
/* Is the word of a use's choices a stack ref?  By its letters alone: a
 * stack is one ASCII letter, so a word that begins with anything else is
 * none. */
int hg_enc_is_ref_word(const char *w)
{
	return is_ref_text(w);
}

/* One chosen item: a hidden card (stack ref), a pile, '?', a card or a
 * resource. */
static int parse_item(const pctx *c, const hg_atok *tk, enc_item *it)
{
	memset(it, 0, sizeof *it);
	it->inst = -1;
	it->where = tk->pos;
	if (tk->kind == HG_ATOK_UNKNOWN) {
		it->kind = ENC_ITEM_UNKNOWN;
		return 0;
	}
	if (tk->kind == HG_ATOK_NUMBER) {
		it->kind = ENC_ITEM_NUMBER;
		long v = strtol(tk->text, NULL, 10);
		it->number = (short)(v > 999 ? 999 : v);
		return 0;
	}
	if (tk->kind == HG_ATOK_WORD && is_ref_text(tk->text))
		return ref_at(c, tk->text, tk->pos, it);
	const enc_pool *pool = &c->s->data->pool;
	int k = tk->kind == HG_ATOK_WORD ? enc_find_card_n(pool, tk->text, tk->len) : -1;
	if (k >= 0 && !pool->cards[k].tower) {
		it->kind = ENC_ITEM_CARD;
		it->card = (short)k;
		return 0;
	}
	int r = tk->kind == HG_ATOK_WORD ? enc_find_res(pool, tk->text) : -1;
	if (r >= 0) {
		it->kind = ENC_ITEM_RESOURCE;
		it->number = (short)r;
		return 0;
	}
	hg_diag *dg = hg_diag_add(c->d, HG_ERROR, tk->pos, "enc.unknown-card",
				  "'%s' is no card, resource, pile or stack", tk->text);
	if (tk->kind == HG_ATOK_WORD)
		enc_suggest_cards(pool, tk->text, dg);
	return -1;
}

/* A signed amount: "-3", "3" or "+ 3". */
static int amount_at(const hg_action_text *t, size_t *i, int *out)
{
	int sign = 1;
	if (*i < t->ntoks && t->toks[*i].kind == HG_ATOK_PUNCT &&
	    strcmp(t->toks[*i].text, "+") == 0)
		(*i)++;
	if (*i >= t->ntoks)
		return -1;
	const char *w = t->toks[*i].text;
	if (*w == '-') {
		sign = -1;
		w++;
	}
	if (!*w)
		return -1;
	for (const char *p = w; *p; p++)
		if (*p < '0' || *p > '9')
			return -1;
	long v = strtol(w, NULL, 10);
	*out = sign * (int)(v > 999 ? 999 : v);
	(*i)++;
	return 0;
}

/* The stated outcome of an effect the card data cannot express:
 * "nothing" | part {"," part}, part = "discard" seat item | "tower" seat
 * amount | "wear" seat amount. */
static int parse_outcome(const pctx *c, hg_action *a, size_t i)
{
	const hg_action_text *t = c->t;
	a->has_outcome = 1;
	for (;;) {
		if (i >= t->ntoks)
			goto bad;
		const hg_atok *verb = &t->toks[i++];
		if (a->nout >= ENC_MAX_OUTCOME) {
			hg_diag_add(c->d, HG_ERROR, verb->pos, "enc.syntax",
				    "an outcome of more than %d parts", ENC_MAX_OUTCOME);
			return -1;
		}
		enc_outcome *o = &a->out[a->nout];
		memset(o, 0, sizeof *o);
		o->where = verb->pos;
		o->item.inst = -1;
		if (hg_name_eq(verb->text, "nothing") || hg_name_eq(verb->text, "nada")) {
			/* The grammar: "nothing" is the whole outcome or none. */
			if (a->nout > 0 || i < t->ntoks) {
				hg_diag_add(c->d, HG_ERROR, verb->pos, "enc.syntax",
					    "'%s' is the whole outcome or none of it", verb->text);
				return -1;
			}
			o->kind = ENC_OUT_NOTHING;
		} else {
			if (hg_name_eq(verb->text, "discard") || hg_name_eq(verb->text, "descartar"))
				o->kind = ENC_OUT_DISCARD;
			else if (hg_name_eq(verb->text, "tower") || hg_name_eq(verb->text, "torre"))
				o->kind = ENC_OUT_TOWER;
			else if (hg_name_eq(verb->text, "wear") || hg_name_eq(verb->text, "desgaste"))
				o->kind = ENC_OUT_WEAR;
			else
				goto bad_at;
			if (i >= t->ntoks)
				goto bad;
			o->seat = (signed char)seat_word(c, t->toks[i].text, t->toks[i].pos);
			if (o->seat < 0)
				return -1;
			i++;
			if (o->kind == ENC_OUT_DISCARD) {
				if (i >= t->ntoks)
					goto bad;
				if (parse_item(c, &t->toks[i], &o->item) != 0)
					return -1;
				if (o->item.kind != ENC_ITEM_CARD && o->item.kind != ENC_ITEM_REF) {
					hg_diag_add(c->d, HG_ERROR, t->toks[i].pos, "enc.syntax",
						    "an outcome discards a card of the town or a hidden card");
					return -1;
				}
				i++;
			} else {
				int v;
				if (amount_at(t, &i, &v) != 0)
					goto bad;
				o->amount = (short)v;
			}
		}
		a->nout++;
		if (i >= t->ntoks)
			return 0;
		if (strcmp(t->toks[i].text, ",") != 0) {
			verb = &t->toks[i];
			goto bad_at;
		}
		i++;
		continue;
bad_at:
		hg_diag_add(c->d, HG_ERROR, verb->pos, "enc.syntax",
			    "'%s' is no outcome: 'nothing', 'discard SEAT CARD', 'tower SEAT N' or 'wear SEAT N'",
			    verb->text);
		return -1;
	}
bad:
	hg_diag_add(c->d, HG_ERROR, t->ntoks ? t->toks[t->ntoks - 1].pos : t->pos, "enc.syntax",
		    "the outcome after '=' is incomplete: 'nothing', 'discard SEAT CARD', 'tower SEAT N' or 'wear SEAT N'");
	return -1;
}

static int parse_use(const pctx *c, hg_action *a)
{
	const char *src = part_text(c, 1);
	a->src_pos = part_pos(c, 1);
	/* Most sources are cards: a word that begins with another ASCII
	 * letter than t is neither keyword, without folding it. */
	int may_be_tower = (src[0] | 0x20) == 't' || (unsigned char)src[0] >= 0x80;
	/* In a plain ASCII text hg_name_eq is ASCII case: a word of another
	 * length than five is neither. */
	if (may_be_tower && c->ascii && part_len(c, 1) != 5)
		may_be_tower = 0;
	if (may_be_tower && (hg_name_eq(src, "tower") || hg_name_eq(src, "torre"))) {
		a->src = ENC_SRC_TOWER;
	} else {
		a->src = ENC_SRC_TOWN;
		if (card_part(c, 1, &a->src_card, &a->src_pos) != 0)
			return -1;
		if (a->src_card == -2) {
			hg_diag_add(c->d, HG_ERROR, a->src_pos, "enc.syntax",
				    "an effect's card is seen by all: name it");
			a->src_card = -1;
		}
	}
	if (a->src == ENC_SRC_TOWN && a->src_card < 0)
		return -1;
	if (has_part(c, 2)) {
		a->other_pos = part_pos(c, 2);
		a->other = seat_word(c, part_text(c, 2), a->other_pos);
		if (a->other < 0)
			return -1;
	}
	/* The rest: groups "/ item ..." then "= outcome". */
	const hg_action_text *t = c->t;
	size_t i = c->rest;
	int group = -1;
	while (i < t->ntoks) {
		const hg_atok *tk = &t->toks[i];
		if (tk->kind == HG_ATOK_PUNCT && strcmp(tk->text, "/") == 0) {
			group = ++a->ngroups - 1;
			i++;
			continue;
		}
		if (tk->kind == HG_ATOK_PUNCT && strcmp(tk->text, "=") == 0)
			return parse_outcome(c, a, i + 1);
		if (group < 0) {
			hg_diag_add(c->d, HG_ERROR, tk->pos, "enc.syntax",
				    "'%s': choices follow '/', a stated outcome follows '='", tk->text);
			return -1;
		}
		if (a->nitems >= ENC_MAX_ITEMS) {
			hg_diag_add(c->d, HG_ERROR, tk->pos, "enc.syntax",
				    "more than %d choices in one use", ENC_MAX_ITEMS);
			return -1;
		}
		enc_item *it = &a->items[a->nitems];
		if (parse_item(c, tk, it) != 0)
			return -1;
		it->group = (signed char)group;
		a->nitems++;
		i++;
	}
	return 0;
}

/* "setup 2 centinela ? milicia ...": the six cards as they come, named or
 * '?' (optional: a Seed knows them). */
static int parse_setup_cards(const pctx *c, hg_action *a)
{
	const hg_action_text *t = c->t;
	for (size_t i = c->rest; i < t->ntoks; i++) {
		if (a->nitems >= ENC_SETUP_CARDS) {
			hg_diag_add(c->d, HG_ERROR, t->toks[i].pos, "enc.syntax",
				    "the set-up takes %d cards", ENC_SETUP_CARDS);
			return -1;
		}
		if (t->toks[i].kind == HG_ATOK_PUNCT) {
			hg_diag_add(c->d, HG_ERROR, t->toks[i].pos, "enc.syntax",
				    "'%s' is no card: the set-up names its cards or writes '?'",
				    t->toks[i].text);
			return -1;
		}
		enc_item *it = &a->items[a->nitems];
		memset(it, 0, sizeof *it);
		it->where = t->toks[i].pos;
		it->inst = -1;
		int k = card_word(c, t->toks[i].text, t->toks[i].len, t->toks[i].pos);
		if (k == -1)
			return -1;
		it->kind = k == -2 ? ENC_ITEM_UNKNOWN : ENC_ITEM_CARD;
		it->card = (short)k;
		a->nitems++;
	}
	return 0;
}

/* ------------------------------------------------------------ parse */
static hg_action *parse_body(const pctx *c, int which, int seat)
{
	hg_action *a = parse_alloc(c->s, seat);
	if (!a)
		return NULL;
	a->pos = c->t->pos;
	a->seat_pos = c->t->seat_pos.line ? c->t->seat_pos : c->t->pos;
	int rc = 0;
	switch (which) {
	case V_SETUP:
		a->kind = ENC_A_SETUP;
		a->pile = part_text(c, 1)[0] - '1';
		rc = parse_setup_cards(c, a);
		break;
	case V_DRAW:
		a->kind = ENC_A_DRAW;
		a->pile = part_text(c, 1)[0] - '1';
		rc = card_part(c, 2, &a->card, &a->card_pos);
		break;
	case V_PUT:
		a->kind = ENC_A_PUT;
		rc = card_part(c, 1, &a->card, &a->card_pos);
		a->visible = c->visible;
		if (has_part(c, 3)) {
			if (a->visible) {
				hg_diag_add(c->d, HG_ERROR, part_pos(c, 3), "enc.syntax",
					    "a visible card joins the town: it takes no stack");
				rc = -1;
			} else {
				a->has_ref = 1;
				rc |= ref_part(c, 3, &a->ref2);
			}
		}
		break;
	case V_SHOW:
	case V_TAKE:
		a->kind = which == V_SHOW ? ENC_A_SHOW : ENC_A_TAKE;
		a->has_ref = 1;
		rc = ref_part(c, 1, &a->ref);
		rc |= card_part(c, 2, &a->card, &a->card_pos);
		if (a->card == -2)
			a->card = -1;
		break;
	case V_MOVE:
		a->kind = ENC_A_MOVE;
		a->has_ref = 1;
		rc = ref_part(c, 1, &a->ref);
		rc |= ref_part(c, 2, &a->ref2);
		break;
	case V_USE:
		a->kind = ENC_A_USE;
		rc = parse_use(c, a);
		break;
	case V_PASS:
		a->kind = ENC_A_PASS;
		break;
	case V_WAR:
		a->kind = ENC_A_WAR;
		a->other_pos = part_pos(c, 1);
		a->other = seat_word(c, part_text(c, 1), a->other_pos);
		rc = a->other < 0 ? -1 : 0;
		break;
	case V_DEFEND:
		a->kind = ENC_A_DEFEND;
		break;
	case V_YIELD:
		a->kind = ENC_A_YIELD;
		break;
	case V_ARMY:
		a->kind = ENC_A_ARMY;
		rc = ref_part(c, 1, &a->ref);
		a->army = a->ref.stack;
		break;
	case V_REVEAL:
		a->kind = ENC_A_REVEAL;
		rc = card_part(c, 1, &a->card, &a->card_pos);
		if (a->card == -2)
			a->card = -1;
		break;
	case V_FIGHT:
		a->kind = ENC_A_FIGHT;
		break;
	case V_TARGET:
		a->kind = ENC_A_TARGET;
		if (has_part(c, 1)) {
			a->tgt = ENC_TGT_TOWER;
		} else if (has_part(c, 2)) {
			a->tgt = ENC_TGT_ARMY;
			rc = ref_part(c, 2, &a->ref);
			a->army = a->ref.stack;
		} else {
			a->tgt = ENC_TGT_TOWN;
			rc = card_part(c, 3, &a->card, &a->card_pos);
			if (rc == 0 && a->card < 0) {
				hg_diag_add(c->d, HG_ERROR, a->card_pos, "enc.syntax",
					    "a target in the town is seen by all: name it");
				rc = -1;
			}
		}
		break;
	case V_RETARGET:
		a->kind = ENC_A_RETARGET;
		rc = card_part(c, 1, &a->card, &a->card_pos);
		if (rc == 0 && a->card < 0) {
			hg_diag_add(c->d, HG_ERROR, a->card_pos, "enc.syntax",
				    "the new target is a card of the town: name it");
			rc = -1;
		}
		break;
	case V_FORCE:
		a->kind = ENC_A_FORCE;
		if (has_part(c, 1)) {
			a->has_ref = 1;
			rc = ref_part(c, 1, &a->ref);
			rc |= card_part(c, 2, &a->card, &a->card_pos);
			if (a->card == -2)
				a->card = -1;
		} else {
			rc = card_part(c, 3, &a->card, &a->card_pos);
			if (rc == 0 && a->card < 0) {
				hg_diag_add(c->d, HG_ERROR, a->card_pos, "enc.syntax",
					    "a card of the town is seen by all: name it");
				rc = -1;
			}
		}
		break;
	case V_REGROUP:
		a->kind = ENC_A_REGROUP;
		break;
	case V_END:
		a->kind = ENC_A_END;
		break;
	}
	if (rc != 0) {
		enc_free_action(a);
		return NULL;
	}
	return a;
}

/* The action: its shape read (read_shape), then its parts (parse_body). */
hg_action *enc_parse(const hg_state *s, const hg_action_text *t, hg_diags *d)
{
	pctx c;
	c.s = s;
	c.t = t;
	c.d = d;
	c.ascii = hg_action_text_is_ascii(t);
	c.rest = 0;
	c.visible = 0;
	int seat = enc_find_seat(s, t->seat ? t->seat : "");
	if (seat < 0) {
		hg_pos seat_pos = t->seat_pos.line ? t->seat_pos : t->pos;
		hg_diag *dg = hg_diag_add(d, HG_ERROR, seat_pos, "enc.unknown-seat",
					  "unknown seat '%s'", t->seat ? t->seat : "");
		hg_diag_note(dg, "the seats are P1 to P%d, or the players' names", s->nseats);
		return NULL;
	}
	int which = read_shape(s->data->verbs, &c);
	if (which >= 0)
		return parse_body(&c, which, seat);
	hg_diag *dg = hg_diag_add(d, HG_ERROR, t->pos, "enc.syntax",
				  "'%s' is no Encrucijada action", t->text ? t->text : "");
	hg_diag_note(dg, "actions: setup, draw, put, show, take, move, use, pass, war, defend, yield, army, reveal, fight, target, retarget, force, regroup, end");
	return NULL;
}
