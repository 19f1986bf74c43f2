/* notation.c - Encrucijada's action syntax (grammar/encrucijada.ebnf): the
 * body of each action is matched with PCRE2 patterns compiled at load (a
 * plain ASCII one word by word, to the same match: match_words), and
 * written back canonically (English verbs, card ids, seats P1 ... P6).
 * Spanish verbs are accepted as aliases.  Parsing consults only the set-up
 * (seats, card pool), never the position. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "enc.h"

/* A stack letter is an ASCII letter (grammar/encrucijada.ebnf: "one of the
 * words a to z"), matched case-sensitively: caseless and with Unicode
 * properties, [a-z] would also match the Kelvin sign and the long s. */
#define LETTER "(?-i:[a-zA-Z])"
#define REF LETTER "(?:\\.[0-9]+)?"

enum {
	P_SETUP, P_DRAW, P_PUT, P_SHOW, P_TAKE, P_MOVE, P_USE, P_PASS, P_WAR,
	P_DEFEND, P_YIELD, P_ARMY, P_REVEAL, P_FIGHT, P_TARGET, P_RETARGET,
	P_FORCE, P_REGROUP, P_END, P_REF, P_COUNT
};

static const char *const sources[P_COUNT] = {
	[P_SETUP] = "(?:setup|preparar) ([123])((?: \\S+)*)",
	[P_DRAW] = "(?:draw|robar) ([123])(?: (\\S+))?",
	[P_PUT] = "(?:put|bajar) (\\S+) (hidden|visible|oculta|oculto)(?: (" REF "))?",
	[P_SHOW] = "(?:show|mostrar) (" REF ")(?: (\\S+))?",
	[P_TAKE] = "(?:take|tomar) (" REF ")(?: (\\S+))?",
	[P_MOVE] = "(?:move|mover) (" REF ") (" REF ")",
	[P_USE] = "(?:use|usar) (\\S+)(?: > (\\S+))?((?: .*)?)",
	[P_PASS] = "(?:pass|pasar)",
	[P_WAR] = "(?:war|guerra) (\\S+)",
	[P_DEFEND] = "(?:defend|defender)",
	[P_YIELD] = "(?:yield|invadir)",
	[P_ARMY] = "(?:army|ej[eé]rcito) (" LETTER ")",
	[P_REVEAL] = "(?:reveal|revelar)(?: (\\S+))?",
	[P_FIGHT] = "(?:fight|batalla|batallar)",
	[P_TARGET] = "(?:target|objetivo) (?:(tower|torre)|(?:army|ej[eé]rcito) (" LETTER ")|(\\S+))",
	[P_RETARGET] = "(?:retarget|cambiar) (\\S+)",
	[P_FORCE] = "(?:force|obligar) (?:(" REF ")(?: (\\S+))?|(\\S+))",
	[P_REGROUP] = "(?:regroup|withdraw|reagrupar|retirar)",
	[P_END] = "(?:end|fin)",
	[P_REF] = REF,
};

/* Room for the longest verb match_words knows ("reagrupar") and its NUL. */
#define VERB_MAX 12
#define VERB_SEVERAL 0xff

struct enc_patterns {
	hg_pattern *p[P_COUNT];
	/* The first two letters of each action pattern's verbs, lowercase,
	 * pair after pair.  Every pattern begins "(?:verb|verb...)" with verbs
	 * whose first two characters are ASCII letters, and (caseless) those
	 * match ASCII letters only when they are the same letters: an action
	 * that begins with two other ASCII letters is not tried against that
	 * pattern, so that most actions cost one match, not one per kind of
	 * action listed before theirs. */
	char initials[P_REF][16];
	/* The same as a table: by the two letters, the patterns (bits by
	 * index) that may_begin allows. */
	uint32_t begins[26][26];
	/* The action patterns' verbs that are plain ASCII words, lowercase,
	 * and the verbs (bits by index) by their first letter, their second
	 * and their length: match_words reads an action's first word against
	 * the verbs in all three, mostly one or none.  Three small tables
	 * rather than one by the pair of letters: read for every action,
	 * they stay in the cache. */
	struct verb {
		char word[VERB_MAX];
		unsigned char len, pattern;
		/* A verb of 3 to 8 letters as two words of four bytes, from
		 * its start and from tail_at (the last four; a verb of three
		 * is read with the byte after it, a space: verb_of). */
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
	 * table and one of the verb, the three tables above being for the
	 * rest (verb_of). */
	unsigned char verb_at[26][VERB_MAX];
};
_Static_assert(P_REF <= 32, "enc_patterns.begins holds a bit per action pattern");

static int ascii_lower(char c)
{
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'z' ? c : -1;
}

static void verb_initials(const char *src, char *out, size_t size)
{
	size_t n = 0;
	if (strncmp(src, "(?:", 3) != 0)
		abort();	/* every action pattern begins with its verbs */
	for (const char *v = src + 3;; v = strchr(v, '|') + 1) {
		if (ascii_lower(v[0]) < 0 || ascii_lower(v[1]) < 0 || n + 3 > size)
			abort();
		out[n++] = (char)ascii_lower(v[0]);
		out[n++] = (char)ascii_lower(v[1]);
		const char *bar = strchr(v, '|'), *end = strchr(v, ')');
		if (!bar || bar > end)
			break;
	}
	out[n] = '\0';
}

/* The verbs of pattern i that are ASCII letters only, into ps->verb:
 * "ej[eé]rcito" is left out, and an action that begins with it (as
 * "ejercito" or "ejército") is matched by PCRE2. */
static void verb_words(enc_patterns *ps, int i)
{
	const char *src = sources[i], *v = src + 3, *end = strchr(src, ')');
	while (v < end) {
		size_t len = strcspn(v, "|)");
		int plain = 1;
		for (size_t k = 0; k < len; k++)
			plain &= ascii_lower(v[k]) == (v[k] | 0x20);
		if (plain) {
			if (len >= VERB_MAX || ps->nverbs >= (int)HG_ARRAY_LEN(ps->verb))
				abort();	/* enc_patterns.verb is too small */
			struct verb *vb = &ps->verb[ps->nverbs];
			for (size_t k = 0; k < len; k++)
				vb->word[k] = (char)ascii_lower(v[k]);
			vb->len = (unsigned char)len;
			vb->pattern = (unsigned char)i;
			char key[VERB_MAX + 4] = { 0 };
			memcpy(key, vb->word, len);
			key[len] = ' ';
			vb->tail_at = (unsigned char)(len >= 4 ? len - 4 : 0);
			memcpy(&vb->head, key, 4);
			memcpy(&vb->tail, key + vb->tail_at, 4);
			ps->verbs_by_first[vb->word[0] - 'a'] |= (uint64_t)1 << ps->nverbs;
			ps->verbs_by_second[vb->word[1] - 'a'] |= (uint64_t)1 << ps->nverbs;
			ps->verbs_by_len[len] |= (uint64_t)1 << ps->nverbs;
			unsigned char *at = &ps->verb_at[vb->word[0] - 'a'][len];
			*at = *at == 0 && len <= 8 ? (unsigned char)(ps->nverbs + 1) : VERB_SEVERAL;
			ps->nverbs++;
		}
		v += len + 1;
	}
}

/* Can an action beginning with the letters a, b match pattern i? */
static int may_begin(const enc_patterns *ps, int i, int a, int b)
{
	for (const char *v = ps->initials[i]; *v; v += 2)
		if (v[0] == a && v[1] == b)
			return 1;
	return 0;
}

enc_patterns *enc_patterns_new(void)
{
	enc_patterns *ps = hg_xcalloc(1, sizeof *ps);
	for (int i = 0; i < P_COUNT; i++)
		ps->p[i] = hg_pattern_new(sources[i]);
	for (int i = 0; i < P_REF; i++) {
		verb_initials(sources[i], ps->initials[i], sizeof ps->initials[i]);
		verb_words(ps, i);
	}
	for (int a = 0; a < 26; a++)
		for (int b = 0; b < 26; b++)
			for (int i = 0; i < P_REF; i++)
				if (may_begin(ps, i, 'a' + a, 'a' + b))
					ps->begins[a][b] |= (uint32_t)1 << i;
	return ps;
}

void enc_patterns_free(enc_patterns *ps)
{
	if (!ps)
		return;
	for (int i = 0; i < P_COUNT; i++)
		hg_pattern_free(ps->p[i]);
	free(ps);
}

/* ------------------------------------------------------------ words */
/* Most actions are plain ASCII.  In such a text (the tokens joined by
 * single spaces) every element of the patterns takes whole words - a verb,
 * a keyword, \S+, a stack letter [a-zA-Z] with its position, '>' - and
 * caseless matching is ASCII case, so which pattern matches and what its
 * groups hold can be read word by word, as here, for the price of a look
 * at the first words instead of a PCRE2 match.  The verbs select the
 * pattern: no two patterns share a verb, and a verb is the whole first
 * word.
 *
 * This reading only ever finds a match: a text that is not plain ASCII,
 * a verb it does not know (ejercito) or words in a shape its pattern does
 * not take are left to PCRE2 (-1), which then finds the match or says
 * that the action is none.  A match found here holds the groups PCRE2
 * would give (hg_match: unset groups (size_t)-1, ngroups one past the
 * last set group); test-enc.c checks that on many texts. */

/* The groups a shape sets: 0 to 3. */
#define WORD_GROUPS 4

typedef struct words {
	const char *text;
	size_t n;			/* words (tokens) in the text */
	const hg_atok *toks;		/* word k is toks[k].text, at toks[k].off */
	size_t len;			/* of the text */
	/* By group, the token it holds whole, or -1: what the groups' texts
	 * and positions are, without looking for their tokens (gtext). */
	signed char *tok;
} words;

/* The words of a plain text: its tokens (a token holds no space and no
 * control character, and the text is the tokens joined by single spaces,
 * hg_action_text, so that token k's text is word k); 0, or -1 for a text
 * that is not plain ASCII. */
static int plain_words(const hg_action_text *t, words *w)
{
	if (t->ntoks == 0 || !t->text)
		return -1;
	if (!hg_action_text_is_ascii(t))
		return -1;	/* not plain ASCII */
	w->text = t->text;
	w->len = t->len;
	w->n = t->ntoks;
	w->toks = t->toks;
	return 0;
}

/* Where word k ends in the text. */
static size_t word_end(const words *w, size_t k)
{
	return w->toks[k].off + w->toks[k].len;
}

/* Is word k the word `lower` (small letters), ignoring case
 * (hg_ascii_same: no call, no loop for the words asked)? */
static inline int word_is(const words *w, size_t k, const char *lower)
{
	size_t n = strlen(lower);
	return w->toks[k].len == n && hg_ascii_same(w->toks[k].text, lower, n, 0x20);
}

/* Is word k the one character c? */
static int word_is_char(const words *w, size_t k, char c)
{
	const char *p = w->toks[k].text;
	return p[0] == c && !p[1];
}

/* LETTER: one ASCII letter, whatever its case. */
static int word_is_letter(const words *w, size_t k)
{
	const char *p = w->toks[k].text;
	return ascii_lower(p[0]) >= 0 && !p[1];
}

/* REF: a letter, then nothing or '.' and one or more digits. */
static int word_is_ref(const words *w, size_t k)
{
	const char *p = w->toks[k].text;
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

/* Group g holds word k, or text from `start` to the end. */
static void group_word(hg_match *m, const words *w, int g, size_t k)
{
	w->tok[g] = (signed char)k;
	m->start[g] = w->toks[k].off;
	m->end[g] = word_end(w, k);
	m->ngroups = g + 1;
}

static void group_rest(hg_match *m, const words *w, int g, size_t start)
{
	m->start[g] = start;
	m->end[g] = w->len;
	m->ngroups = g + 1;
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

/* Which pattern's verb word 0 is, or -1: the one verb that begins with
 * its first letter and is as long, or among those that begin with its
 * first two letters and are as long.  Inline, as match_words is: every
 * action asks. */
static inline HG_ALWAYS_INLINE int verb_of(const enc_patterns *ps, const words *w)
{
	int a = ascii_lower(w->text[0]), b = ascii_lower(w->text[1]);
	size_t len0 = w->toks[0].len;
	if (a < 0 || b < 0 || len0 >= VERB_MAX)
		return -1;
	const char *p = w->text;
	int at = ps->verb_at[a - 'a'][len0];
	if (at != VERB_SEVERAL) {
		/* The one verb there can be (or none): its words hold all
		 * of it, the first two letters too. */
		if (at == 0)
			return -1;
		const struct verb *v = &ps->verb[at - 1];
		return verb_words_same(v, p) ? v->pattern : -1;
	}
	/* The first two letters are the pair's, the length the verb's:
	 * compare the rest. */
	uint64_t try = ps->verbs_by_first[a - 'a'] & ps->verbs_by_second[b - 'a'] &
		       ps->verbs_by_len[len0];
	for (; try; try &= try - 1) {
		const struct verb *v = &ps->verb[enc_set_first(try)];
		if (v->len <= 8) {
			if (verb_words_same(v, p))
				return v->pattern;
			continue;
		}
		size_t i = 2;
		while (i < v->len && (p[i] | 0x20) == v->word[i])
			i++;
		if (i == v->len)
			return v->pattern;
	}
	return -1;
}

/* The pattern a plain text matches, and its groups in m, read from its
 * words (sources[] above, clause by clause); -1: left to PCRE2.  Inline
 * in parse_action, which every action goes through: no call, and the
 * action text's fields read once. */
static inline HG_ALWAYS_INLINE int match_words(const enc_patterns *ps, const hg_action_text *t,
					       hg_match *m, signed char tok[WORD_GROUPS])
{
	words w;
	memset(tok, -1, WORD_GROUPS);
	if (plain_words(t, &w) != 0)
		return -1;
	w.tok = tok;
	const char *text = w.text;
	int which = verb_of(ps, &w);
	if (which < 0)
		return -1;
	/* Only the groups a shape sets are cleared: parse_body reads no other
	 * (hg_enc_match_words clears them all, to compare with PCRE2's). */
	for (int g = 0; g < WORD_GROUPS; g++)
		m->start[g] = m->end[g] = (size_t)-1;
	m->subject = text;
	m->ngroups = 1;
	m->start[0] = 0;
	m->end[0] = w.len;
	size_t n = w.n;
	int ok = 0;
	switch (which) {
	case P_SETUP:		/* verb [123] {\S+} */
	case P_DRAW:		/* verb [123] [\S+] */
		ok = n >= 2 && (which == P_SETUP || n <= 3) &&
		     w.toks[1].text[0] >= '1' && w.toks[1].text[0] <= '3' && !w.toks[1].text[1];
		if (!ok)
			break;
		group_word(m, &w, 1, 1);
		if (which == P_SETUP)
			group_rest(m, &w, 2, word_end(&w, 1));
		else if (n == 3)
			group_word(m, &w, 2, 2);
		break;
	case P_PUT:		/* verb \S+ (hidden|visible|oculta|oculto) [REF] */
		ok = (n == 3 || (n == 4 && word_is_ref(&w, 3))) &&
		     (word_is(&w, 2, "hidden") || word_is(&w, 2, "visible") ||
		      word_is(&w, 2, "oculta") || word_is(&w, 2, "oculto"));
		if (!ok)
			break;
		group_word(m, &w, 1, 1);
		group_word(m, &w, 2, 2);
		if (n == 4)
			group_word(m, &w, 3, 3);
		break;
	case P_SHOW:		/* verb REF [\S+] */
	case P_TAKE:
		ok = (n == 2 || n == 3) && word_is_ref(&w, 1);
		if (!ok)
			break;
		group_word(m, &w, 1, 1);
		if (n == 3)
			group_word(m, &w, 2, 2);
		break;
	case P_MOVE:		/* verb REF REF */
		ok = n == 3 && word_is_ref(&w, 1) && word_is_ref(&w, 2);
		if (!ok)
			break;
		group_word(m, &w, 1, 1);
		group_word(m, &w, 2, 2);
		break;
	case P_USE:		/* verb \S+ [> \S+] (.*): '>' with no word after is rest */
		ok = n >= 2;
		if (!ok)
			break;
		group_word(m, &w, 1, 1);
		if (n >= 4 && word_is_char(&w, 2, '>')) {
			group_word(m, &w, 2, 3);
			group_rest(m, &w, 3, word_end(&w, 3));
		} else {
			group_rest(m, &w, 3, word_end(&w, 1));
		}
		break;
	case P_PASS:		/* the verb alone */
	case P_DEFEND:
	case P_YIELD:
	case P_FIGHT:
	case P_REGROUP:
	case P_END:
		ok = n == 1;
		break;
	case P_WAR:		/* verb \S+ */
	case P_RETARGET:
		ok = n == 2;
		if (ok)
			group_word(m, &w, 1, 1);
		break;
	case P_ARMY:		/* verb LETTER */
		ok = n == 2 && word_is_letter(&w, 1);
		if (ok)
			group_word(m, &w, 1, 1);
		break;
	case P_REVEAL:		/* verb [\S+] */
		ok = n <= 2;
		if (ok && n == 2)
			group_word(m, &w, 1, 1);
		break;
	case P_TARGET:		/* verb (tower|torre) | army LETTER | \S+ */
		if (n == 2) {
			ok = 1;
			group_word(m, &w, word_is(&w, 1, "tower") || word_is(&w, 1, "torre") ? 1 : 3, 1);
		} else if (n == 3) {
			/* "ejército" is not plain: that spelling goes to PCRE2 */
			ok = (word_is(&w, 1, "army") || word_is(&w, 1, "ejercito")) &&
			     word_is_letter(&w, 2);
			if (ok)
				group_word(m, &w, 2, 2);
		}
		break;
	case P_FORCE:		/* verb REF [\S+] | \S+ */
		if (n == 2) {
			ok = 1;
			group_word(m, &w, word_is_ref(&w, 1) ? 1 : 3, 1);
		} else if (n == 3) {
			ok = word_is_ref(&w, 1);
			if (ok) {
				group_word(m, &w, 1, 1);
				group_word(m, &w, 2, 2);
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

hg_action *enc_action_new(enc_act_kind kind, int seat)
{
	hg_action *a = hg_xmalloc(ACTION_SIZE(ENC_MAX_ITEMS, ENC_MAX_OUTCOME));
	action_init(a, kind, seat, ENC_MAX_ITEMS);
	memset(a->items, 0, ENC_MAX_ITEMS * sizeof a->items[0]);
	memset(a->out, 0, ENC_MAX_OUTCOME * sizeof a->out[0]);
	return a;
}

hg_action_cache *enc_action_cache_new(void)
{
	return hg_action_cache_new(ACTION_SIZE(ENC_MAX_ITEMS, ENC_MAX_OUTCOME));
}

/* enc_parse's action, from the game's spare-action cache: every block has
 * room for the most items and parts a use takes, so that any will do for
 * the next. */
static hg_action *parse_alloc(const hg_state *s, int seat)
{
	hg_action *a = hg_action_cache_take(s->sh->actions);
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
typedef struct pctx {
	const hg_state *s;
	const hg_action_text *t;
	hg_match m;
	/* Matched word by word, the group's whole token or -1 (words.tok). */
	signed char gtok[WORD_GROUPS];
	hg_diags *d;
	char *spare;		/* gtext's copy, when it needed one */
} pctx;

/* Did group g take part?  (hg_match_set, for the groups the patterns
 * have, without the call.) */
static int gset(const pctx *c, int g)
{
	return c->m.start[g] != (size_t)-1;
}

static hg_pos gpos(const pctx *c, int g)
{
	if (g < WORD_GROUPS && c->gtok[g] >= 0)
		return c->t->toks[c->gtok[g]].pos;
	return hg_action_text_pos(c->t, c->m.start[g]);
}

/* The text of group g (which took part).  A group of one word is a whole
 * token (the text is the tokens joined by single spaces, and each such
 * group begins after a space and ends at one or at the end): its text is
 * the token's own, with no copy.  Anything else is copied, and the copy
 * lives until the next call or the end of the parse. */
static const char *gtext_found(pctx *c, int g);

static inline const char *gtext(pctx *c, int g)
{
	if (g < WORD_GROUPS && c->gtok[g] >= 0)
		return c->t->toks[c->gtok[g]].text;
	return gtext_found(c, g);
}

/* The length of gtext's text w for group g: a whole token's is known. */
static inline size_t gtext_len(const pctx *c, int g, const char *w)
{
	if (g < WORD_GROUPS && c->gtok[g] >= 0)
		return c->t->toks[c->gtok[g]].len;
	return strlen(w);
}

/* gtext for a group matched by PCRE2: its token, found by its offset, or
 * a copy. */
static const char *gtext_found(pctx *c, int g)
{
	const hg_action_text *t = c->t;
	size_t start = c->m.start[g], end = c->m.end[g];
	for (size_t i = 0; i < t->ntoks && t->toks[i].off <= start; i++) {
		if (t->toks[i].off != start)
			continue;
		/* A token ends where the space before the next one is. */
		size_t tend = i + 1 < t->ntoks ? t->toks[i + 1].off - 1 :
			      start + strlen(t->toks[i].text);
		if (tend == end)
			return t->toks[i].text;
		break;
	}
	free(c->spare);
	c->spare = hg_match_dup(&c->m, g);
	return c->spare;
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

static int card_group(pctx *c, int g, int *out, hg_pos *pos)
{
	*out = -1;
	if (!gset(c, g))
		return 0;
	*pos = gpos(c, g);
	const char *w = gtext(c, g);
	int k = card_word(c, w, gtext_len(c, g, w), *pos);
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

static int ref_group(pctx *c, int g, enc_item *it)
{
	/* gtext is the group's text exactly, a REF: one ASCII letter, then
	 * nothing or '.' and digits */
	const char *w = gtext(c, g);
	parse_ref(w, gpos(c, g), it);
	if (it->pos == 0 && w[1] == '.') {
		hg_diag_add(c->d, HG_ERROR, gpos(c, g), "enc.syntax",
			    "stack positions count from 1 (the top)");
		return -1;
	}
	return 0;
}

void enc_format_ref(const enc_item *ref, hg_buf *b)
{
	if (ref->pos <= 1)
		hg_buf_printf(b, "%c", 'a' + ref->stack);
	else
		hg_buf_printf(b, "%c.%d", 'a' + ref->stack, ref->pos);
}

/* ------------------------------------------------------------ use */
static const hg_atok *tok_at(const hg_action_text *t, size_t off)
{
	for (size_t i = 0; i < t->ntoks; i++)
		if (t->toks[i].off >= off)
			return &t->toks[i];
	return NULL;
}

static int is_ref_word(const pctx *c, const char *w)
{
	/* A reference is one ASCII letter (LETTER takes no other), then
	 * nothing or '.' and ASCII digits: a word that begins with an ASCII
	 * letter is one or not by that alone (most words are card names). */
	if (ascii_lower(w[0]) >= 0) {
		const char *p = w + 1;
		if (*p == '.' && p[1]) {
			for (p++; *p >= '0' && *p <= '9'; p++)
				;
		}
		return !*p;
	}
	/* A word of more than 4 bytes without a '.' is more than one code
	 * point, so none; anything else is left to the pattern. */
	if (strlen(w) > 4 && !strchr(w, '.'))
		return 0;
	hg_match m;
	return hg_pattern_match(c->s->data->pat->p[P_REF], w, &m);
}

int hg_enc_is_ref_word(const hg_state *s, const char *w)
{
	pctx c;
	memset(&c, 0, sizeof c);
	c.s = s;
	return is_ref_word(&c, w);
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
	if (tk->kind == HG_ATOK_WORD && is_ref_word(c, tk->text)) {
		parse_ref(tk->text, tk->pos, it);
		return 0;
	}
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

static int parse_use(pctx *c, hg_action *a)
{
	const char *src = gtext(c, 1);
	a->src_pos = gpos(c, 1);
	/* Most sources are cards: a word that begins with another ASCII
	 * letter than t is neither keyword, without folding it. */
	int may_be_tower = (src[0] | 0x20) == 't' || (unsigned char)src[0] >= 0x80;
	/* In a plain ASCII text hg_name_eq is ASCII case: a word of another
	 * length than five is neither. */
	if (may_be_tower && hg_action_text_is_ascii(c->t) && gtext_len(c, 1, src) != 5)
		may_be_tower = 0;
	if (may_be_tower && (hg_name_eq(src, "tower") || hg_name_eq(src, "torre"))) {
		a->src = ENC_SRC_TOWER;
	} else {
		a->src = ENC_SRC_TOWN;
		a->src_card = card_word(c, src, gtext_len(c, 1, src), a->src_pos);
		if (a->src_card == -2) {
			hg_diag_add(c->d, HG_ERROR, a->src_pos, "enc.syntax",
				    "an effect's card is seen by all: name it");
			a->src_card = -1;
		}
	}
	if (a->src == ENC_SRC_TOWN && a->src_card < 0)
		return -1;
	if (gset(c, 2)) {
		a->other_pos = gpos(c, 2);
		a->other = seat_word(c, gtext(c, 2), a->other_pos);
		if (a->other < 0)
			return -1;
	}
	/* The rest: groups "/ item ..." then "= outcome". */
	const hg_action_text *t = c->t;
	const hg_atok *first = c->m.end[3] > c->m.start[3] ? tok_at(t, c->m.start[3]) : NULL;
	size_t i = first ? (size_t)(first - t->toks) : t->ntoks;
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
static int parse_setup_cards(pctx *c, hg_action *a)
{
	const hg_action_text *t = c->t;
	const hg_atok *first = c->m.end[2] > c->m.start[2] ? tok_at(t, c->m.start[2]) : NULL;
	for (size_t i = first ? (size_t)(first - t->toks) : t->ntoks; i < t->ntoks; i++) {
		if (a->nitems >= ENC_SETUP_CARDS) {
			hg_diag_add(c->d, HG_ERROR, t->toks[i].pos, "enc.syntax",
				    "the set-up takes %d cards", ENC_SETUP_CARDS);
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
static hg_action *parse_body(pctx *c, int which, int seat)
{
	hg_action *a = parse_alloc(c->s, seat);
	a->pos = c->t->pos;
	a->seat_pos = c->t->seat_pos.line ? c->t->seat_pos : c->t->pos;
	int rc = 0;
	switch (which) {
	case P_SETUP:
		a->kind = ENC_A_SETUP;
		a->pile = c->m.subject[c->m.start[1]] - '1';
		rc = parse_setup_cards(c, a);
		break;
	case P_DRAW:
		a->kind = ENC_A_DRAW;
		a->pile = c->m.subject[c->m.start[1]] - '1';
		rc = card_group(c, 2, &a->card, &a->card_pos);
		break;
	case P_PUT:
		a->kind = ENC_A_PUT;
		rc = card_group(c, 1, &a->card, &a->card_pos);
		/* Group 2 is hidden, visible, oculta or oculto, in any case
		 * (no other letter matches h, v or o caselessly): only a v
		 * may begin "visible".  Matched word by word (gtok), it is
		 * one of the four in ASCII letters: the v says which. */
		a->visible = (c->m.subject[c->m.start[2]] | 0x20) == 'v' &&
			     (c->gtok[2] >= 0 || hg_name_eq(gtext(c, 2), "visible"));
		if (gset(c, 3)) {
			if (a->visible) {
				hg_diag_add(c->d, HG_ERROR, gpos(c, 3), "enc.syntax",
					    "a visible card joins the town: it takes no stack");
				rc = -1;
			} else {
				a->has_ref = 1;
				rc |= ref_group(c, 3, &a->ref2);
			}
		}
		break;
	case P_SHOW:
	case P_TAKE:
		a->kind = which == P_SHOW ? ENC_A_SHOW : ENC_A_TAKE;
		a->has_ref = 1;
		rc = ref_group(c, 1, &a->ref);
		rc |= card_group(c, 2, &a->card, &a->card_pos);
		if (a->card == -2)
			a->card = -1;
		break;
	case P_MOVE:
		a->kind = ENC_A_MOVE;
		a->has_ref = 1;
		rc = ref_group(c, 1, &a->ref);
		rc |= ref_group(c, 2, &a->ref2);
		break;
	case P_USE:
		a->kind = ENC_A_USE;
		rc = parse_use(c, a);
		break;
	case P_PASS:
		a->kind = ENC_A_PASS;
		break;
	case P_WAR:
		a->kind = ENC_A_WAR;
		a->other_pos = gpos(c, 1);
		a->other = seat_word(c, gtext(c, 1), a->other_pos);
		rc = a->other < 0 ? -1 : 0;
		break;
	case P_DEFEND:
		a->kind = ENC_A_DEFEND;
		break;
	case P_YIELD:
		a->kind = ENC_A_YIELD;
		break;
	case P_ARMY:
		a->kind = ENC_A_ARMY;
		rc = ref_group(c, 1, &a->ref);
		a->army = a->ref.stack;
		break;
	case P_REVEAL:
		a->kind = ENC_A_REVEAL;
		rc = card_group(c, 1, &a->card, &a->card_pos);
		if (a->card == -2)
			a->card = -1;
		break;
	case P_FIGHT:
		a->kind = ENC_A_FIGHT;
		break;
	case P_TARGET:
		a->kind = ENC_A_TARGET;
		if (gset(c, 1)) {
			a->tgt = ENC_TGT_TOWER;
		} else if (gset(c, 2)) {
			a->tgt = ENC_TGT_ARMY;
			rc = ref_group(c, 2, &a->ref);
			a->army = a->ref.stack;
		} else {
			a->tgt = ENC_TGT_TOWN;
			rc = card_group(c, 3, &a->card, &a->card_pos);
			if (rc == 0 && a->card < 0) {
				hg_diag_add(c->d, HG_ERROR, a->card_pos, "enc.syntax",
					    "a target in the town is seen by all: name it");
				rc = -1;
			}
		}
		break;
	case P_RETARGET:
		a->kind = ENC_A_RETARGET;
		rc = card_group(c, 1, &a->card, &a->card_pos);
		if (rc == 0 && a->card < 0) {
			hg_diag_add(c->d, HG_ERROR, a->card_pos, "enc.syntax",
				    "the new target is a card of the town: name it");
			rc = -1;
		}
		break;
	case P_FORCE:
		a->kind = ENC_A_FORCE;
		if (gset(c, 1)) {
			a->has_ref = 1;
			rc = ref_group(c, 1, &a->ref);
			rc |= card_group(c, 2, &a->card, &a->card_pos);
			if (a->card == -2)
				a->card = -1;
		} else {
			rc = card_group(c, 3, &a->card, &a->card_pos);
			if (rc == 0 && a->card < 0) {
				hg_diag_add(c->d, HG_ERROR, a->card_pos, "enc.syntax",
					    "a card of the town is seen by all: name it");
				rc = -1;
			}
		}
		break;
	case P_REGROUP:
		a->kind = ENC_A_REGROUP;
		break;
	case P_END:
		a->kind = ENC_A_END;
		break;
	}
	if (rc != 0) {
		enc_free_action(a);
		return NULL;
	}
	return a;
}

/* The pattern an action's text matches (-1: none) and its groups, with
 * PCRE2: an action that begins with two ASCII letters is tried only
 * against the patterns with a verb that begins so (enc_patterns.initials). */
static int match_patterns(const enc_patterns *pat, const char *text, hg_match *m)
{
	int a = ascii_lower(text[0]), b = a < 0 ? -1 : ascii_lower(text[1]);
	uint32_t try = b < 0 ? ((uint32_t)1 << P_REF) - 1 : pat->begins[a - 'a'][b - 'a'];
	for (; try; try &= try - 1) {
		int i = enc_set_first(try);
		if (hg_pattern_match(pat->p[i], text, m))
			return i;
	}
	return -1;
}

int hg_enc_match_words(const hg_state *s, const hg_action_text *t, hg_match *m)
{
	signed char tok[WORD_GROUPS];
	memset(m->start, 0xff, sizeof m->start);
	memset(m->end, 0xff, sizeof m->end);
	return match_words(s->data->pat, t, m, tok);
}

int hg_enc_match_patterns(const hg_state *s, const char *text, hg_match *m)
{
	return match_patterns(s->data->pat, text, m);
}

/* The action, its text matched word by word when it is plain (match_words)
 * and with PCRE2 otherwise, or with PCRE2 only (by_words 0). */
static hg_action *parse_action(const hg_state *s, const hg_action_text *t, hg_diags *d,
			       int by_words)
{
	pctx c;			/* c.m is written by the match that succeeds */
	c.s = s;
	c.t = t;
	c.d = d;
	c.spare = NULL;
	int seat = enc_find_seat(s, t->seat ? t->seat : "");
	if (seat < 0) {
		hg_pos seat_pos = t->seat_pos.line ? t->seat_pos : t->pos;
		hg_diag *dg = hg_diag_add(d, HG_ERROR, seat_pos, "enc.unknown-seat",
					  "unknown seat '%s'", t->seat ? t->seat : "");
		hg_diag_note(dg, "the seats are P1 to P%d, or the players' names", s->nseats);
		return NULL;
	}
	const char *text = t->text ? t->text : "";
	const enc_patterns *pat = s->data->pat;
	int i = by_words ? match_words(pat, t, &c.m, c.gtok) : -1;
	if (i < 0) {
		memset(c.gtok, -1, sizeof c.gtok);
		i = match_patterns(pat, text, &c.m);
	}
	if (i >= 0) {
		hg_action *act = parse_body(&c, i, seat);
		if (c.spare)
			free(c.spare);
		return act;
	}
	hg_diag *dg = hg_diag_add(d, HG_ERROR, t->pos, "enc.syntax",
				  "'%s' is no Encrucijada action", text);
	hg_diag_note(dg, "actions: setup, draw, put, show, take, move, use, pass, war, defend, yield, army, reveal, fight, target, retarget, force, regroup, end");
	return NULL;
}

hg_action *enc_parse(const hg_state *s, const hg_action_text *t, hg_diags *d)
{
	return parse_action(s, t, d, 1);
}

hg_action *hg_enc_parse_by_patterns(const hg_state *s, const hg_action_text *t, hg_diags *d)
{
	return parse_action(s, t, d, 0);
}

/* ------------------------------------------------------------ format */
void enc_format_item(const hg_state *s, const enc_item *it, hg_buf *b)
{
	switch (it->kind) {
	case ENC_ITEM_CARD:
		hg_buf_puts(b, enc_card_id(s, it->card));
		break;
	case ENC_ITEM_REF:
		enc_format_ref(it, b);
		break;
	case ENC_ITEM_NUMBER:
		hg_buf_printf(b, "%d", it->number);
		break;
	case ENC_ITEM_RESOURCE:
		hg_buf_puts(b, s->data->pool.res[it->number].id);
		break;
	case ENC_ITEM_UNKNOWN:
		hg_buf_putc(b, '?');
		break;
	}
}

static void opt_card(const hg_state *s, int card, hg_buf *b)
{
	if (card >= 0)
		hg_buf_printf(b, " %s", enc_card_id(s, card));
	else if (card == -2)
		hg_buf_puts(b, " ?");
}

void enc_format(const hg_state *s, const hg_action *a, hg_buf *seat, hg_buf *body)
{
	hg_buf_puts(seat, enc_seat_name(a->seat));
	switch (a->kind) {
	case ENC_A_SETUP:
		hg_buf_printf(body, "setup %d", a->pile + 1);
		for (int i = 0; i < a->nitems; i++) {
			hg_buf_putc(body, ' ');
			enc_format_item(s, &a->items[i], body);
		}
		break;
	case ENC_A_DRAW:
		hg_buf_printf(body, "draw %d", a->pile + 1);
		opt_card(s, a->card, body);
		break;
	case ENC_A_PUT:
		hg_buf_printf(body, "put %s %s", a->card == -2 ? "?" : enc_card_id(s, a->card),
			      a->visible ? "visible" : "hidden");
		if (a->has_ref) {
			hg_buf_putc(body, ' ');
			enc_format_ref(&a->ref2, body);
		}
		break;
	case ENC_A_SHOW:
	case ENC_A_TAKE:
		hg_buf_puts(body, a->kind == ENC_A_SHOW ? "show " : "take ");
		enc_format_ref(&a->ref, body);
		opt_card(s, a->card, body);
		break;
	case ENC_A_MOVE:
		hg_buf_puts(body, "move ");
		enc_format_ref(&a->ref, body);
		hg_buf_putc(body, ' ');
		enc_format_ref(&a->ref2, body);
		break;
	case ENC_A_USE: {
		hg_buf_printf(body, "use %s", a->src == ENC_SRC_TOWER ? "tower" :
			      enc_card_id(s, a->src_card));
		if (a->other >= 0)
			hg_buf_printf(body, " > %s", enc_seat_name(a->other));
		for (int g = 0; g < a->ngroups; g++) {
			hg_buf_puts(body, " /");
			for (int i = 0; i < a->nitems; i++)
				if (a->items[i].group == g) {
					hg_buf_putc(body, ' ');
					enc_format_item(s, &a->items[i], body);
				}
		}
		if (a->has_outcome) {
			hg_buf_puts(body, " =");
			for (int i = 0; i < a->nout; i++) {
				const enc_outcome *o = &a->out[i];
				hg_buf_puts(body, i ? ", " : " ");
				switch (o->kind) {
				case ENC_OUT_NOTHING:
					hg_buf_puts(body, "nothing");
					break;
				case ENC_OUT_DISCARD:
					hg_buf_printf(body, "discard %s ", enc_seat_name(o->seat));
					enc_format_item(s, &o->item, body);
					break;
				case ENC_OUT_TOWER:
					hg_buf_printf(body, "tower %s %d", enc_seat_name(o->seat), o->amount);
					break;
				case ENC_OUT_WEAR:
					hg_buf_printf(body, "wear %s %d", enc_seat_name(o->seat), o->amount);
					break;
				}
			}
		}
		break;
	}
	case ENC_A_PASS:
		hg_buf_puts(body, "pass");
		break;
	case ENC_A_WAR:
		hg_buf_printf(body, "war %s", enc_seat_name(a->other));
		break;
	case ENC_A_DEFEND:
		hg_buf_puts(body, "defend");
		break;
	case ENC_A_YIELD:
		hg_buf_puts(body, "yield");
		break;
	case ENC_A_ARMY:
		hg_buf_printf(body, "army %c", 'a' + a->army);
		break;
	case ENC_A_REVEAL:
		hg_buf_puts(body, "reveal");
		opt_card(s, a->card, body);
		break;
	case ENC_A_FIGHT:
		hg_buf_puts(body, "fight");
		break;
	case ENC_A_TARGET:
		if (a->tgt == ENC_TGT_TOWER)
			hg_buf_puts(body, "target tower");
		else if (a->tgt == ENC_TGT_ARMY)
			hg_buf_printf(body, "target army %c", 'a' + a->army);
		else
			hg_buf_printf(body, "target %s", enc_card_id(s, a->card));
		break;
	case ENC_A_RETARGET:
		hg_buf_printf(body, "retarget %s", enc_card_id(s, a->card));
		break;
	case ENC_A_FORCE:
		hg_buf_puts(body, "force ");
		if (a->has_ref) {
			enc_format_ref(&a->ref, body);
			opt_card(s, a->card, body);
		} else {
			hg_buf_puts(body, enc_card_id(s, a->card));
		}
		break;
	case ENC_A_REGROUP:
		hg_buf_puts(body, "regroup");
		break;
	case ENC_A_END:
		hg_buf_puts(body, "end");
		break;
	}
}
