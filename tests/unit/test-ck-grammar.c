/* test-ck-grammar.c - Crusader Kingdoms: the reader of actions
 * (src/games/crusader-kingdoms/notation.c) against the normative grammar,
 * grammar/crusader-kingdoms.ebnf, read here as it is written.
 *
 * Sentences are generated from the production `action`, thousands of
 * them, until every alternative, option and repetition of every
 * production it reaches has been taken: each is read without a
 * diagnostic, and what the writer makes of it reads back to the same.
 * Near-misses of each are refused with the code they call for: a name of
 * nothing (ck.unknown-area, -seat, -card), a number too large for its
 * field (ck.die-range, ck.mod-die, ck.hits-wrong, ck.too-many), a side
 * that is none, the sentence cut where the grammar wants more, a token
 * too many (ck.syntax).  The production `list keyword` is the table of
 * the words that end a list (notation-words.h), and each of its words
 * ends a list of cards.  So the grammar and the reader cannot drift. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ck.h"
#include "notation-words.h"

#define GRAMMAR HERALD_SRCDATADIR "/../grammar/crusader-kingdoms.ebnf"
#define DATA HERALD_SRCDATADIR "/crusader-kingdoms/"

/* ------------------------------------------------------- the EBNF, read */
typedef enum node_kind { N_ALT, N_SEQ, N_OPT, N_REP, N_TERM, N_REF } node_kind;

typedef struct node {
	node_kind kind;
	struct node **v;	/* ALT, SEQ: the parts; OPT, REP: v[0] */
	int n;
	char *text;		/* TERM: the terminal; REF: the name */
	int taken, skipped;	/* ALT's parts, OPT and REP bodies: how often */
} node;

typedef struct rule {
	char *name;
	node *body;
	int used;
} rule;

static rule rules[64];
static int nrules;
static const char *src;		/* the grammar, read on from here */

static void skip_space(void)
{
	for (;;) {
		while (*src == ' ' || *src == '\t' || *src == '\n' || *src == '\r')
			src++;
		if (src[0] == '(' && src[1] == '*') {
			const char *end = strstr(src + 2, "*)");
			ck_assert_ptr_nonnull(end);
			src = end + 2;
		} else {
			return;
		}
	}
}

static node *new_node(node_kind kind)
{
	node *x = calloc(1, sizeof *x);
	ck_assert_ptr_nonnull(x);
	x->kind = kind;
	return x;
}

static void add_part(node *x, node *part)
{
	x->v = realloc(x->v, (size_t)(x->n + 1) * sizeof *x->v);
	ck_assert_ptr_nonnull(x->v);
	x->v[x->n++] = part;
}

/* A name: letters, digits, '_' and '-', and the spaces between words
 * ("kw draw", "list keyword"). */
static char *read_name(void)
{
	const char *start = src;
	while ((*src >= 'a' && *src <= 'z') || (*src >= 'A' && *src <= 'Z') ||
	       (*src >= '0' && *src <= '9') || *src == '_' || *src == '-' || *src == ' ')
		src++;
	const char *end = src;
	while (end > start && end[-1] == ' ')
		end--;
	ck_assert_msg(end > start, "a name expected at '%.20s'", start);
	return hg_xstrndup(start, (size_t)(end - start));
}

static node *read_expr(void);

static node *read_factor(void)
{
	skip_space();
	char c = *src;
	if (c == '[' || c == '{' || c == '(') {
		src++;
		node *inner = read_expr();
		skip_space();
		char close = c == '[' ? ']' : c == '{' ? '}' : ')';
		ck_assert_msg(*src == close, "'%c' expected at '%.20s'", close, src);
		src++;
		if (c == '(')
			return inner;
		node *x = new_node(c == '[' ? N_OPT : N_REP);
		add_part(x, inner);
		return x;
	}
	if (c == '"') {
		const char *end = strchr(src + 1, '"');
		ck_assert_ptr_nonnull(end);
		node *x = new_node(N_TERM);
		x->text = hg_xstrndup(src + 1, (size_t)(end - src - 1));
		src = end + 1;
		return x;
	}
	node *x = new_node(N_REF);
	x->text = read_name();
	return x;
}

static node *read_seq(void)
{
	node *x = new_node(N_SEQ);
	add_part(x, read_factor());
	for (skip_space(); *src == ','; skip_space()) {
		src++;
		add_part(x, read_factor());
	}
	return x;
}

static node *read_expr(void)
{
	node *x = new_node(N_ALT);
	add_part(x, read_seq());
	for (skip_space(); *src == '|'; skip_space()) {
		src++;
		add_part(x, read_seq());
	}
	return x;
}

static char *grammar_text;

static void read_grammar(void)
{
	FILE *f = fopen(GRAMMAR, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", GRAMMAR);
	hg_buf b;
	hg_buf_init(&b);
	char chunk[4096];
	for (size_t n; (n = fread(chunk, 1, sizeof chunk, f)) > 0;)
		hg_buf_putn(&b, chunk, n);
	fclose(f);
	grammar_text = hg_buf_steal(&b);
	src = grammar_text;
	for (skip_space(); *src; skip_space()) {
		ck_assert_int_lt(nrules, (int)HG_ARRAY_LEN(rules));
		rule *r = &rules[nrules++];
		r->name = read_name();
		skip_space();
		ck_assert_msg(*src == '=', "'=' expected after '%s'", r->name);
		src++;
		r->body = read_expr();
		skip_space();
		ck_assert_msg(*src == ';', "';' expected after the rule '%s'", r->name);
		src++;
	}
}

static rule *find_rule(const char *name)
{
	for (int i = 0; i < nrules; i++)
		if (strcmp(rules[i].name, name) == 0)
			return &rules[i];
	return NULL;
}

/* ------------------------------------------------------ sentences, made */
/* What a token of a sentence stands for, and so how a near-miss of it is
 * refused. */
typedef enum tok_role {
	R_FIXED,		/* a keyword or punctuation */
	R_AREA, R_FACTION, R_CARD, R_HIDDEN, R_DIE, R_FACE, R_HITS, R_COUNT, R_SIDE
} tok_role;

typedef struct sentence {
	const char *tok[256];
	tok_role role[256];
	int n;
	int cut[256];		/* lengths at which it is unfinished */
	int ncut;
	int next_area;		/* areas are taken without repeats */
} sentence;

typedef struct names {
	const char *areas[CK_MAX_AREAS];
	int nareas;
	const char *seats[CK_MAX_SIDES];
	int nseats;
	const char *cards[2 * CK_MAX_CARDS];
	int ncards;
} names;

static names vocabulary;
static hg_prng prng;
static const char *const digits[] = { "0", "1", "2", "3", "4", "5", "6", "7", "8", "9" };

static void put(sentence *s, const char *tok, tok_role role)
{
	ck_assert_int_lt(s->n, 256);
	s->tok[s->n] = tok;
	s->role[s->n++] = role;
}

/* Can x derive nothing? */
static int may_be_empty(const node *x)
{
	switch (x->kind) {
	case N_OPT:
	case N_REP:
		return 1;
	case N_SEQ:
		for (int i = 0; i < x->n; i++)
			if (!may_be_empty(x->v[i]))
				return 0;
		return 1;
	case N_ALT:
		for (int i = 0; i < x->n; i++)
			if (may_be_empty(x->v[i]))
				return 1;
		return 0;
	default:
		return 0;	/* no rule of the grammar derives nothing */
	}
}

static void generate(sentence *s, node *x, const char *in);

/* The names the grammar leaves to the data, and its numbers. */
static int generate_leaf(sentence *s, const char *name, const char *in)
{
	const names *v = &vocabulary;
	if (strcmp(name, "area") == 0) {
		put(s, v->areas[(s->next_area++) % v->nareas], R_AREA);
	} else if (strcmp(name, "faction") == 0) {
		put(s, v->seats[hg_prng_below(&prng, (uint32_t)v->nseats)], R_FACTION);
	} else if (strcmp(name, "card") == 0) {
		put(s, v->cards[hg_prng_below(&prng, (uint32_t)v->ncards)], R_CARD);
	} else if (strcmp(name, "hidden") == 0) {
		put(s, "?", R_HIDDEN);
	} else if (strcmp(name, "die") == 0) {
		put(s, digits[1 + hg_prng_below(&prng, 6)],
		    strcmp(in, "modification") == 0 ? R_FACE : R_DIE);
	} else if (strcmp(name, "number") == 0) {
		ck_assert_msg(strcmp(in, "roll") == 0 || strcmp(in, "draw") == 0,
			      "a number in '%s'", in);
		put(s, digits[hg_prng_below(&prng, 10)], strcmp(in, "roll") == 0 ? R_HITS : R_COUNT);
	} else {
		return 0;
	}
	return 1;
}

static void generate(sentence *s, node *x, const char *in)
{
	switch (x->kind) {
	case N_TERM:
		put(s, x->text, strcmp(in, "side") == 0 ? R_SIDE : R_FIXED);
		break;
	case N_REF: {
		rule *r = find_rule(x->text);
		if (r)
			r->used++;
		if (generate_leaf(s, x->text, in))
			break;
		ck_assert_msg(r != NULL, "the grammar has no rule '%s'", x->text);
		generate(s, r->body, r->name);
		break;
	}
	case N_ALT: {
		int k = (int)hg_prng_below(&prng, (uint32_t)x->n);
		x->v[k]->taken++;
		generate(s, x->v[k], in);
		break;
	}
	case N_SEQ:
		for (int i = 0; i < x->n; i++) {
			generate(s, x->v[i], in);
			/* a part that must follow: cut here, it is unfinished */
			for (int j = i + 1; j < x->n; j++)
				if (!may_be_empty(x->v[j])) {
					if (s->n > 0 && s->ncut < (int)HG_ARRAY_LEN(s->cut))
						s->cut[s->ncut++] = s->n;
					break;
				}
		}
		break;
	case N_OPT:
		if (hg_prng_below(&prng, 2)) {
			x->taken++;
			generate(s, x->v[0], in);
		} else {
			x->skipped++;
		}
		break;
	case N_REP: {
		int k = (int)hg_prng_below(&prng, 3);
		if (k)
			x->taken++;
		else
			x->skipped++;
		for (int i = 0; i < k; i++)
			generate(s, x->v[0], in);
		break;
	}
	}
}

/* Every alternative, option and repetition reached was taken (and every
 * option and repetition left out too). */
static void assert_covered(const node *x, const char *rule_name)
{
	switch (x->kind) {
	case N_ALT:
		for (int i = 0; i < x->n; i++) {
			if (x->n > 1)
				ck_assert_msg(x->v[i]->taken > 0,
					      "alternative %d of '%s' never taken", i + 1, rule_name);
			assert_covered(x->v[i], rule_name);
		}
		break;
	case N_SEQ:
		for (int i = 0; i < x->n; i++)
			assert_covered(x->v[i], rule_name);
		break;
	case N_OPT:
	case N_REP:
		ck_assert_msg(x->taken > 0 && x->skipped > 0,
			      "an option or repetition of '%s' not both taken and left", rule_name);
		assert_covered(x->v[0], rule_name);
		break;
	default:
		break;
	}
}

/* --------------------------------------------------------------- reading */
static hg_gdata *shared;
static hg_state *game;

static char *joined(const sentence *s, int n)
{
	hg_buf b;
	hg_buf_init(&b);
	for (int i = 0; i < n; i++)
		hg_buf_printf(&b, "%s%s", i ? " " : "", s->tok[i]);
	return b.data ? hg_buf_steal(&b) : hg_xstrdup("");
}

/* Reads "seat: body": the action written back, or NULL (*code: the
 * first error's code). */
static char *read_action(const char *seat, const char *body, char *code, size_t size)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_action_text t;
	hg_pos pos = { "grammar.hgn", 1, 1 };
	char *out = NULL;
	code[0] = '\0';
	ck_assert_int_eq(hg_action_text_set(&t, seat, body, pos, &d), 0);
	hg_action *a = hg_ck_class.parse(game, &t, &d);
	if (a) {
		ck_assert_msg(d.n == 0, "'%s' read with a diagnostic: %s", body, d.v[0].message);
		hg_buf bs, bb;
		hg_buf_init(&bs);
		hg_buf_init(&bb);
		hg_ck_class.format(game, a, &bs, &bb);
		out = hg_buf_steal(&bb);
		hg_buf_free(&bs);
		hg_ck_class.free_action(a);
	} else {
		ck_assert_msg(d.nerrors > 0, "'%s' refused without an error", body);
		snprintf(code, size, "%s", d.v[0].code);
	}
	hg_action_text_free(&t);
	hg_diags_free(&d);
	return out;
}

static void expect_refused(const char *seat, const char *body, const char *want)
{
	char code[64];
	char *out = read_action(seat, body, code, sizeof code);
	ck_assert_msg(out == NULL, "'%s: %s' read as '%s'", seat, body, out ? out : "");
	ck_assert_msg(strcmp(code, want) == 0, "'%s: %s' refused with %s, not %s", seat, body,
		      code, want);
}

/* The near-miss of token k, and the code it is refused with (NULL: none
 * for a token of that role). */
static const char *near_miss(tok_role role, const char **word)
{
	switch (role) {
	case R_AREA:
		*word = "nowhere";
		return "ck.unknown-area";
	case R_FACTION:
		*word = "nobody";
		return "ck.unknown-seat";
	case R_CARD:
		*word = "nocard";
		return "ck.unknown-card";
	case R_DIE:
		*word = "100";
		return "ck.die-range";
	case R_FACE:
		*word = "100";
		return "ck.mod-die";
	case R_HITS:
		*word = "1000";
		return "ck.hits-wrong";
	case R_COUNT:
		*word = "1000";
		return "ck.too-many";
	case R_SIDE:
		*word = "sideways";
		return "ck.syntax";
	default:
		return NULL;
	}
}

static void check_sentence(sentence *s)
{
	const char *seat = vocabulary.seats[hg_prng_below(&prng, (uint32_t)vocabulary.nseats)];
	char *body = joined(s, s->n);
	char code[64];
	char *written = read_action(seat, body, code, sizeof code);
	ck_assert_msg(written != NULL, "'%s: %s' (from the grammar) refused with %s", seat, body,
		      code);
	char *again = read_action(seat, written, code, sizeof code);
	ck_assert_msg(again != NULL, "'%s' (written of '%s') refused with %s", written, body, code);
	ck_assert_str_eq(again, written);
	free(again);
	free(written);

	/* one name or number of nothing */
	int k = (int)hg_prng_below(&prng, (uint32_t)s->n);
	const char *word, *want = near_miss(s->role[k], &word);
	if (want) {
		const char *kept = s->tok[k];
		s->tok[k] = word;
		char *miss = joined(s, s->n);
		expect_refused(seat, miss, want);
		free(miss);
		s->tok[k] = kept;
	}
	/* cut where the grammar wants more */
	if (s->ncut) {
		char *cut = joined(s, s->cut[hg_prng_below(&prng, (uint32_t)s->ncut)]);
		expect_refused(seat, cut, "ck.syntax");
		free(cut);
	}
	/* a token too many */
	char *more = hg_xstrdup(body);
	more = realloc(more, strlen(more) + 3);
	strcat(more, " /");
	expect_refused(seat, more, "ck.syntax");
	free(more);
	free(body);
}

static void setup(void)
{
	hg_diags d;
	hg_diags_init(&d);
	shared = hg_ck_load_files(DATA "scenarios.yaml", NULL, 0, NULL, 0, &d);
	ck_assert_ptr_nonnull(shared);
	hg_game_record *rec = hg_record_new("grammar.hgn");
	hg_record_set_tag(rec, "Game", "crusader-kingdoms");
	hg_record_set_tag(rec, "Scenario", "2nd-crusade");
	hg_record_set_tag(rec, "Players", "Ana; Ben; Cid; Dora");
	game = hg_ck_class.setup(shared, rec, &d);
	hg_record_free(rec);
	ck_assert_ptr_nonnull(game);
	ck_assert_uint_eq(d.nerrors, 0);
	hg_diags_free(&d);
	names *v = &vocabulary;
	v->nareas = v->nseats = v->ncards = 0;
	for (int a = 0; a < game->map->nareas; a++)
		v->areas[v->nareas++] = game->map->areas[a].id;
	for (int f = 0; f < game->sc->nfactions; f++)
		v->seats[v->nseats++] = game->sc->factions[f].id;
	for (int x = 0; x < CK_NRELIGIONS; x++)
		for (int c = 0; c < shared->decks[x].ncards; c++)
			v->cards[v->ncards++] = shared->decks[x].cards[c].id;
	nrules = 0;
	read_grammar();
}

static void free_node(node *x)
{
	for (int i = 0; i < x->n; i++)
		free_node(x->v[i]);
	free(x->v);
	free(x->text);
	free(x);
}

static void teardown(void)
{
	hg_ck_class.free_state(game);
	hg_ck_unload(shared);
	for (int i = 0; i < nrules; i++) {
		free(rules[i].name);
		free_node(rules[i].body);
	}
	nrules = 0;
	free(grammar_text);
}

START_TEST(every_production_is_read)
{
	rule *action = find_rule("action");
	ck_assert_ptr_nonnull(action);
	hg_prng_seed(&prng, "ck-grammar");
	for (int i = 0; i < 4000; i++) {
		sentence s;
		memset(&s, 0, sizeof s);
		s.next_area = (int)hg_prng_below(&prng, (uint32_t)vocabulary.nareas);
		action->used++;
		generate(&s, action->body, "action");
		check_sentence(&s);
	}
	/* every rule reached, every part of it taken */
	for (int i = 0; i < nrules; i++) {
		if (strcmp(rules[i].name, "list keyword") == 0)
			continue;
		ck_assert_msg(rules[i].used > 0, "the rule '%s' is never reached", rules[i].name);
		assert_covered(rules[i].body, rules[i].name);
	}
}
END_TEST

/* The words of `x` (a rule's terminals, through the rules it names). */
static void words_of(const node *x, const char **out, int *n)
{
	if (x->kind == N_TERM) {
		out[(*n)++] = x->text;
	} else if (x->kind == N_REF) {
		rule *r = find_rule(x->text);
		ck_assert_ptr_nonnull(r);
		words_of(r->body, out, n);
	} else {
		for (int i = 0; i < x->n; i++)
			words_of(x->v[i], out, n);
	}
}

START_TEST(list_keywords_are_the_table_s)
{
	rule *r = find_rule("list keyword");
	ck_assert_ptr_nonnull(r);
	const char *words[128];
	int n = 0;
	words_of(r->body, words, &n);
	ck_assert_int_gt(n, 20);
	/* each ends a list of cards: then nothing can follow a draw */
	for (int i = 0; i < n; i++) {
		ck_assert_msg(ck_word_ends_list(words[i]), "'%s' does not end a list", words[i]);
		char body[64];
		snprintf(body, sizeof body, "draw tropa-1 %s", words[i]);
		expect_refused("damasco", body, "ck.syntax");
	}
	/* and the table has no other */
	for (int w = 0; w < CK_NWORDS; w++)
		for (int k = 0; ck_words[w].ends_list && k < CK_WORD_SPELLINGS; k++) {
			if (!*ck_words[w].spelling[k])
				continue;
			int found = 0;
			for (int i = 0; i < n && !found; i++)
				found = hg_name_eq(words[i], ck_words[w].spelling[k]);
			ck_assert_msg(found, "'%s' ends a list, but is no list keyword of the grammar",
				      ck_words[w].spelling[k]);
		}
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("crusader-kingdoms grammar");
	TCase *tc = tcase_create("grammar");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, every_production_is_read);
	tcase_add_test(tc, list_keywords_are_the_table_s);
	suite_add_tcase(s, tc);
	return s;
}
