/* test-enc.c - Encrucijada: the card pool's and the deck files'
 * diagnostics, the construction rules against the illegal decks of
 * records/encrucijada/decks, the Seed's shuffle against its documented
 * derivation, the turn rules, the worked examples of the rule text, and
 * random games through hg_enc_class (legal() against apply(), parse()
 * against format(), the engine's zone sets and remembered activity against
 * the zones and rule 2). */
#include "unit.h"

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "enc.h"
#include "enc-deck.h"

extern const hg_game_class hg_enc_class;

#define DATA HERALD_SRCDATADIR
#define RECORDS HERALD_SRCDATADIR "/../records/encrucijada"

/* ------------------------------------------------------------ helpers */
/* Cards of a seat in a zone (the library's own helpers are not exported). */
static int zone_count(const hg_state *s, int seat, int zone)
{
	int n = 0;
	for (int i = 0; i < s->p[seat].ninst; i++)
		n += s->p[seat].inst[i].zone == zone;
	return n;
}

static int has_code(const hg_diags *d, const char *code)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->v[i].code, code) == 0)
			return 1;
	return 0;
}

static void dump(const hg_diags *d)
{
	for (size_t i = 0; i < d->n; i++) {
		hg_buf b;
		hg_buf_init(&b);
		hg_diag_format(&d->v[i], &b, 0);
		fprintf(stderr, "%s", b.data);
		hg_buf_free(&b);
	}
}

typedef struct game {
	hg_datapath path;
	hg_game_record *rec;
	hg_gdata *data;
	hg_state *st;
	hg_diags d;
} game;

/* A game from tag pairs (name, value, ..., NULL). */
static void game_open(game *g, const char *const *tags)
{
	memset(g, 0, sizeof *g);
	hg_diags_init(&g->d);
	hg_datapath_init(&g->path, DATA);
	g->rec = hg_record_new("test.hgn");
	hg_record_set_tag(g->rec, "Game", "encrucijada");
	for (size_t i = 0; tags[i]; i += 2)
		hg_record_set_tag(g->rec, tags[i], tags[i + 1]);
	hg_load_ctx ctx = { &g->path, g->rec, "." };
	g->data = hg_enc_class.load(&ctx, NULL, &g->d);
	if (!g->data)
		dump(&g->d);
	ck_assert_ptr_nonnull(g->data);
	g->st = hg_enc_class.setup(g->data, g->rec, &g->d);
}

static void game_close(game *g)
{
	if (g->st)
		hg_enc_class.free_state(g->st);
	if (g->data)
		hg_enc_class.unload(g->data);
	hg_record_free(g->rec);
	hg_datapath_free(&g->path);
	hg_diags_free(&g->d);
}

/* Parses and applies "SEAT: body": 0 legal, -1 illegal, -2 not parsed. */
static int play(game *g, const char *seat, const char *body)
{
	hg_action_text t;
	memset(&t, 0, sizeof t);
	hg_pos pos = { "test.hgn", 1, 1 };
	if (hg_action_text_set(&t, seat, body, pos, &g->d) != 0) {
		hg_action_text_free(&t);
		return -2;
	}
	hg_action *a = hg_enc_class.parse(g->st, &t, &g->d);
	hg_action_text_free(&t);
	if (!a)
		return -2;
	int rc = hg_enc_class.apply(g->st, a, &g->d);
	hg_enc_class.free_action(a);
	return rc;
}

/* Plays a list of "SEAT: body" strings; fails the test at the first that
 * is not legal. */
static void play_all(game *g, const char *const *moves)
{
	for (size_t i = 0; moves[i]; i++) {
		const char *colon = strchr(moves[i], ':');
		char seat[16];
		snprintf(seat, sizeof seat, "%.*s", (int)(colon - moves[i]), moves[i]);
		int rc = play(g, seat, colon + 2);
		if (rc != 0) {
			dump(&g->d);
			ck_abort_msg("'%s' was not legal", moves[i]);
		}
	}
}

static int card_index(const game *g, const char *id)
{
	for (size_t i = 0; i < g->data->pool.ncards; i++)
		if (strcmp(g->data->pool.cards[i].id, id) == 0)
			return (int)i;
	return -1;
}

/* ------------------------------------------------------------ decks */
START_TEST(shipped_decks_are_legal)
{
	hg_datapath path;
	hg_datapath_init(&path, DATA);
	int decks = 0;
	for (size_t i = 0; hg_enc_class.data_files[i]; i++) {
		if (strncmp(hg_enc_class.data_files[i], "encrucijada/decks/", 18) != 0)
			continue;
		decks++;
		char *file = hg_datapath_find(&path, hg_enc_class.data_files[i]);
		ck_assert_ptr_nonnull(file);
		hg_diags d;
		hg_diags_init(&d);
		int rc = hg_enc_deck_check(&path, file, &d);
		if (rc != 0 || d.n)
			dump(&d);
		ck_assert_int_eq(rc, 0);
		ck_assert_uint_eq(d.n, 0);
		hg_diags_free(&d);
		free(file);
	}
	ck_assert_int_ge(decks, 2);
	hg_datapath_free(&path);
}
END_TEST

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	hg_buf b;
	hg_buf_init(&b);
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		hg_buf_putn(&b, chunk, n);
	fclose(f);
	if (!b.data)
		hg_buf_puts(&b, "");
	return hg_buf_steal(&b);
}

/* Every deck of records/encrucijada/decks is illegal, and `herald deck
 * check NAME.yaml` run there prints exactly the lines of NAME.expect. */
START_TEST(illegal_decks_match_their_expect_files)
{
	ck_assert_int_eq(chdir(RECORDS "/decks"), 0);
	DIR *dir = opendir(".");
	ck_assert_ptr_nonnull(dir);
	hg_datapath path;
	hg_datapath_init(&path, DATA);
	struct dirent *e;
	int decks = 0;
	char *codes[64];
	int ncodes = 0;
	while ((e = readdir(dir)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".yaml") != 0)
			continue;
		decks++;
		hg_diags d;
		hg_diags_init(&d);
		ck_assert_int_eq(hg_enc_deck_check(&path, e->d_name, &d), -1);
		ck_assert_uint_gt(d.nerrors, 0);
		hg_buf got;
		hg_buf_init(&got);
		hg_buf_puts(&got, "");
		for (size_t i = 0; i < d.n; i++) {
			hg_buf one;
			hg_buf_init(&one);
			hg_diag_format(&d.v[i], &one, 0);
			const char *nl = strchr(one.data, '\n');
			hg_buf_putn(&got, one.data, (size_t)(nl - one.data) + 1);
			hg_buf_free(&one);
			int seen = 0;
			for (int k = 0; k < ncodes; k++)
				seen |= strcmp(codes[k], d.v[i].code) == 0;
			if (!seen && ncodes < 64)
				codes[ncodes++] = hg_xstrdup(d.v[i].code);
		}
		char expect_name[512];
		snprintf(expect_name, sizeof expect_name, "%.*s.expect", (int)(n - 5), e->d_name);
		char *want = slurp(expect_name);
		ck_assert_msg(want != NULL, "%s has no .expect sidecar", e->d_name);
		ck_assert_msg(strcmp(want, got.data) == 0, "%s:\nwant:\n%sgot:\n%s", e->d_name, want,
			      got.data);
		free(want);
		hg_buf_free(&got);
		hg_diags_free(&d);
	}
	closedir(dir);
	hg_datapath_free(&path);
	ck_assert_int_ge(decks, 10);
	/* The construction rules, one code each at least. */
	static const char *const needed[] = {
		"enc.deck-size", "enc.deck-copies", "enc.deck-oro-copies", "enc.deck-oro-total",
		"enc.deck-no-tower", "enc.deck-tower-in-pile", "enc.deck-piles",
		"enc.deck-pile-empty", NULL
	};
	for (size_t i = 0; needed[i]; i++) {
		int seen = 0;
		for (int k = 0; k < ncodes; k++)
			seen |= strcmp(codes[k], needed[i]) == 0;
		ck_assert_msg(seen, "no illegal deck shows %s", needed[i]);
	}
	for (int k = 0; k < ncodes; k++)
		free(codes[k]);
}
END_TEST

/* A card file with one mistake, and the code it must draw. */
static const struct card_case {
	const char *name;
	const char *yaml;
	const char *code;
} card_cases[] = {
	{ "unknown key", "civilisation: {id: civ-x, name: X}\ncards:\n  - {id: a1, name: A1, number: 1, suit: oro, value: 1, colour: red}\n", "data.unknown-key" },
	{ "three cost types", "civilisation: {id: civ-x, name: X}\ncards:\n  - {id: a1, name: A1, number: 1, suit: oro, value: 1, cost: {energia: 1, magia: 1, piedra: 1}}\n", "data.range" },
	{ "unknown resource", "civilisation: {id: civ-x, name: X}\ncards:\n  - {id: a1, name: A1, number: 1, suit: oro, value: 1, cost: {mana: 1}}\n", "data.reference" },
	{ "bad suit", "civilisation: {id: civ-x, name: X}\ncards:\n  - {id: a1, name: A1, number: 1, suit: bastos-de-oro, value: 1}\n", "data.range" },
	{ "value out of range", "civilisation: {id: civ-x, name: X}\ncards:\n  - {id: a1, name: A1, number: 1, suit: oro, value: 100}\n", "data.range" },
	{ "reserved id", "civilisation: {id: civ-x, name: X}\ncards:\n  - {id: tower, name: Tower, number: 1, suit: oro, value: 1}\n", "data.range" },
	{ "a stack as an alias", "civilisation: {id: civ-x, name: X}\ncards:\n  - {id: a1, name: A1, aliases: [b.2], number: 1, suit: oro, value: 1}\n", "data.range" },
	{ "duplicate name", "civilisation: {id: civ-x, name: X}\ncards:\n  - {id: a1, name: Milicia, number: 1, suit: oro, value: 1}\n", "data.duplicate-id" },
	{ "duplicate number", "civilisation: {id: civ-x, name: X}\ncards:\n  - {id: a1, name: A1, number: 1, suit: oro, value: 1}\n  - {id: a2, name: A2, number: 1, suit: oro, value: 1}\n", "data.duplicate-id" },
	{ "cards without a civilisation", "cards:\n  - {id: a1, name: A1, number: 1, suit: oro, value: 1}\n", "data.missing-key" },
	{ "destroy without a target", "civilisation: {id: civ-x, name: X}\ncards:\n  - id: a1\n    name: A1\n    number: 1\n    suit: oro\n    value: 1\n    effect: {steps: [{destroy: {count: 1}}]}\n", "data.missing-key" },
	{ "unknown step", "civilisation: {id: civ-x, name: X}\ncards:\n  - id: a1\n    name: A1\n    number: 1\n    suit: oro\n    value: 1\n    effect: {steps: [{teleport: {count: 1}}]}\n", "data.range" },
	{ "effect without steps", "civilisation: {id: civ-x, name: X}\ncards:\n  - id: a1\n    name: A1\n    number: 1\n    suit: oro\n    value: 1\n    effect: {target: opponent}\n", "data.missing-key" },
	{ "step parameter out of range", "civilisation: {id: civ-x, name: X}\ncards:\n  - id: a1\n    name: A1\n    number: 1\n    suit: oro\n    value: 1\n    effect: {steps: [{discard: {count: 11}}]}\n", "data.range" },
	{ "instant boost", "civilisation: {id: civ-x, name: X}\ncards:\n  - id: a1\n    name: A1\n    number: 1\n    suit: oro\n    value: 1\n    effect: {steps: [{boost: {value: 1, duration: instant}}]}\n", "data.range" },
	{ "an alias anchor", "civilisation: &c {id: x, name: X}\n", "data.alias" },
};

START_TEST(card_file_diagnostics)
{
	const struct card_case *c = &card_cases[_i];
	char tmpl[] = "/tmp/herald-enc-XXXXXX";
	int fd = mkstemp(tmpl);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, c->yaml, strlen(c->yaml)), (ssize_t)strlen(c->yaml));
	close(fd);
	const char *files[] = {
		DATA "/encrucijada/resources.yaml", DATA "/encrucijada/towers.yaml",
		DATA "/encrucijada/cards-aurora.yaml", tmpl
	};
	hg_datapath path;
	hg_datapath_init(&path, DATA);
	hg_diags d;
	hg_diags_init(&d);
	int rc = hg_enc_deck_check_with(&path, files, 4,
					DATA "/encrucijada/decks/aurora-vanguardia.yaml", &d);
	unlink(tmpl);
	if (!has_code(&d, c->code))
		dump(&d);
	ck_assert_msg(rc == -1, "%s: the card file was accepted", c->name);
	ck_assert_msg(has_code(&d, c->code), "%s: no %s", c->name, c->code);
	/* The diagnostic points into the card file. */
	int in_file = 0;
	for (size_t i = 0; i < d.n; i++)
		in_file |= d.v[i].file && strcmp(d.v[i].file, tmpl) == 0 && d.v[i].line > 0;
	ck_assert_msg(in_file, "%s: no diagnostic in the card file", c->name);
	hg_diags_free(&d);
	hg_datapath_free(&path);
}
END_TEST

/* Each repeat of a collector number is reported once, in file order, at
 * the repeat and against the first card of that number. */
START_TEST(collector_numbers_repeat)
{
	static const char yaml[] =
		"civilisation: {id: civ-x, name: X}\n"
		"cards:\n"
		"  - {id: a1, name: A1, number: 1, suit: oro, value: 1}\n"
		"  - {id: a2, name: A2, number: 2, suit: oro, value: 1}\n"
		"  - {id: a3, name: A3, number: 1, suit: oro, value: 1}\n"
		"  - {id: a4, name: A4, number: 2, suit: oro, value: 1}\n"
		"  - {id: a5, name: A5, number: 1, suit: oro, value: 1}\n";
	char tmpl[] = "/tmp/herald-enc-XXXXXX";
	int fd = mkstemp(tmpl);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, yaml, strlen(yaml)), (ssize_t)strlen(yaml));
	close(fd);
	const char *files[] = {
		DATA "/encrucijada/resources.yaml", DATA "/encrucijada/towers.yaml", tmpl
	};
	hg_datapath path;
	hg_datapath_init(&path, DATA);
	hg_diags d;
	hg_diags_init(&d);
	hg_enc_deck_check_with(&path, files, 3, DATA "/encrucijada/decks/aurora-vanguardia.yaml", &d);
	unlink(tmpl);
	static const struct {
		unsigned line;
		const char *message;
	} want[] = {
		{ 5, "collector number 1 of 'a3' is also that of 'a1'" },
		{ 6, "collector number 2 of 'a4' is also that of 'a2'" },
		{ 7, "collector number 1 of 'a5' is also that of 'a1'" },
	};
	size_t k = 0;
	for (size_t i = 0; i < d.n; i++) {
		if (strncmp(d.v[i].message, "collector number", 16) != 0)
			continue;
		ck_assert_uint_lt(k, HG_ARRAY_LEN(want));
		ck_assert_str_eq(d.v[i].file, tmpl);
		ck_assert_uint_eq(d.v[i].line, want[k].line);
		ck_assert_str_eq(d.v[i].message, want[k].message);
		k++;
	}
	ck_assert_uint_eq(k, HG_ARRAY_LEN(want));
	hg_diags_free(&d);
	hg_datapath_free(&path);
}
END_TEST

/* ------------------------------------------------------------ chance */
static const char *const two_decks[] = {
	"Players", "Ana; Ben", "Deck1", "aurora-vanguardia", "Deck2", "ocaso-sombras",
	"Seed", "unit-seed", NULL
};

/* herald-encrucijada(7), CHANCE: pile p of seat n is the deck file's list
 * for that pile (entries in order, each repeated by its count), shuffled
 * with hg_prng_shuffle under the seed "<Seed>/P<n>/<p>". */
START_TEST(seed_shuffles_each_pile_as_documented)
{
	game g;
	game_open(&g, two_decks);
	ck_assert_ptr_nonnull(g.st);
	for (int seat = 0; seat < 2; seat++) {
		const enc_deck *deck = g.data->decks[g.st->p[seat].deck];
		for (int pile = 0; pile < ENC_PILES; pile++) {
			int cards[ENC_MAX_DECK];
			memcpy(cards, deck->pile[pile], sizeof(int) * (size_t)deck->pile_n[pile]);
			char seed[64];
			snprintf(seed, sizeof seed, "unit-seed/P%d/%d", seat + 1, pile + 1);
			hg_prng r;
			hg_prng_seed(&r, seed);
			hg_prng_shuffle(&r, cards, (size_t)deck->pile_n[pile], sizeof *cards);
			int k = 0;
			for (int i = 0; i < g.st->p[seat].ninst; i++) {
				const enc_inst *in = &g.st->p[seat].inst[i];
				if (in->pile != pile)
					continue;
				ck_assert_int_eq(in->order, k);
				ck_assert_int_eq(in->card, cards[k]);
				k++;
			}
			ck_assert_int_eq(k, deck->pile_n[pile]);
		}
	}
	game_close(&g);
}
END_TEST

START_TEST(draw_against_the_seed)
{
	game g;
	game_open(&g, two_decks);
	ck_assert_int_eq(play(&g, "P1", "setup 1"), 0);
	ck_assert_int_eq(play(&g, "P2", "setup 1"), 0);
	/* The top card of P1's pile 2, by the Seed. */
	int top = -1, best = 1000;
	for (int i = 0; i < g.st->p[0].ninst; i++)
		if (g.st->p[0].inst[i].pile == 1 && g.st->p[0].inst[i].order < best) {
			best = g.st->p[0].inst[i].order;
			top = g.st->p[0].inst[i].card;
		}
	const char *right = g.data->pool.cards[top].id;
	const char *wrong = strcmp(right, "cantera") == 0 ? "heraldo" : "cantera";
	char body[128];
	snprintf(body, sizeof body, "draw 2 %s", wrong);
	ck_assert_int_eq(play(&g, "P1", body), -1);
	ck_assert(has_code(&g.d, "enc.card-mismatch"));
	snprintf(body, sizeof body, "draw 2 %s", right);
	ck_assert_int_eq(play(&g, "P1", body), 0);
	game_close(&g);
}
END_TEST

/* ------------------------------------------------------------ turns */
/* enc_find_card looks an exact id up in enc_pool.by_id (by its length
 * and words of its bytes) before it asks card_names: the same card (or
 * none) as card_names for every id, name and alias, recased, cut short,
 * lengthened, changed at any one byte (the words cover the id's head, its
 * tail and, past 18 bytes, leave a middle), and for random words. */
static void find_card_both_ways(const enc_pool *pool, const char *name)
{
	ck_assert_msg(hg_enc_find_card(pool, name) == hg_enc_find_card_by_names(pool, name),
		      "'%s' is card %d by id, %d by name", name, hg_enc_find_card(pool, name),
		      hg_enc_find_card_by_names(pool, name));
}

START_TEST(card_ids_find_as_names_do)
{
	game g;
	game_open(&g, two_decks);
	const enc_pool *pool = &g.data->pool;
	ck_assert_ptr_nonnull(pool->by_id);
	int by_id = 0;
	char buf[256];
	for (size_t i = 0; i < pool->ncards; i++) {
		const enc_card *c = &pool->cards[i];
		const char *names[34];
		size_t n = 0;
		names[n++] = c->id;
		names[n++] = c->name;
		for (size_t k = 0; k < c->naliases && n < HG_ARRAY_LEN(names); k++)
			names[n++] = c->aliases[k];
		for (size_t k = 0; k < n; k++) {
			size_t len = strlen(names[k]);
			find_card_both_ways(pool, names[k]);
			snprintf(buf, sizeof buf, "%s", names[k]);
			for (char *q = buf; *q; q++)
				if (*q >= 'a' && *q <= 'z')
					*q = (char)(*q - 'a' + 'A');
			find_card_both_ways(pool, buf);
			snprintf(buf, sizeof buf, "%sx", names[k]);
			find_card_both_ways(pool, buf);
			snprintf(buf, sizeof buf, "%.*s", (int)(len ? len - 1 : 0), names[k]);
			find_card_both_ways(pool, buf);
			for (size_t at = 0; at < len && at + 1 < sizeof buf; at++) {
				snprintf(buf, sizeof buf, "%s", names[k]);
				buf[at] = buf[at] == 'e' ? 'a' : 'e';
				find_card_both_ways(pool, buf);
			}
			/* a byte dropped anywhere: the length is one less */
			for (size_t at = 0; at < len && len < sizeof buf; at++) {
				snprintf(buf, sizeof buf, "%.*s%s", (int)at, names[k], names[k] + at + 1);
				find_card_both_ways(pool, buf);
			}
		}
		/* the ids of the bundled cards are plain: found by the index */
		int k = pool->by_id_from[26 * 26];
		for (int j = 0; j < k; j++)
			by_id += pool->by_id[j].card == (short)i;
	}
	ck_assert_int_eq(by_id, (int)pool->ncards);
	hg_prng r;
	hg_prng_seed(&r, "card-ids");
	for (int t = 0; t < 5000; t++) {
		size_t len = 1 + hg_prng_below(&r, 24);
		for (size_t k = 0; k < len; k++)
			buf[k] = "abcdeilmnoprst-?.2"[hg_prng_below(&r, 18)];
		buf[len] = '\0';
		find_card_both_ways(pool, buf);
	}
	game_close(&g);
}
END_TEST

/* enc_covers (two pairs per card, no loop) against the card's cost[]
 * looked at resource by resource, for every card and many resources
 * around its costs; and each card's shielded against its civilisation's. */
START_TEST(cost_pairs_cover_as_the_cost_does)
{
	game g;
	game_open(&g, two_decks);
	const enc_pool *pool = &g.data->pool;
	hg_prng r;
	hg_prng_seed(&r, "cost-pairs");
	int two = 0, shielded = 0, met = 0, unmet = 0;
	for (size_t i = 0; i < pool->ncards; i++) {
		const enc_card *c = &pool->cards[i];
		ck_assert_int_eq(c->shielded, c->civ >= 0 && pool->civs[c->civ].shielded);
		shielded += c->shielded;
		int named = 0;
		for (int res = 0; res < ENC_MAX_RES; res++)
			named += c->cost[res] != 0;
		two += named == 2;
		for (int t = 0; t < 2000; t++) {
			int res[ENC_MAX_RES];
			for (int k = 0; k < ENC_MAX_RES; k++) {
				/* mostly near the cost: just short, just met */
				int at = c->cost[k] + (int)hg_prng_below(&r, 5) - 2;
				res[k] = hg_prng_below(&r, 4) ? (at < 0 ? 0 : at) :
					 (int)hg_prng_below(&r, 200);
			}
			int want = 1;
			for (int k = 0; k < ENC_MAX_RES; k++)
				if (c->cost[k] != 0 && res[k] < c->cost[k])
					want = 0;
			ck_assert_int_eq(enc_covers(c, res), want);
			met += want;
			unmet += !want;
		}
	}
	ck_assert_int_gt(two, 0);
	ck_assert_int_gt(shielded, 0);
	ck_assert_int_gt(met, 0);
	ck_assert_int_gt(unmet, 0);
	game_close(&g);
}
END_TEST

static const char *const unseeded[] = {
	"Players", "Ana; Ben", "Deck1", "aurora-vanguardia", "Deck2", "ocaso-sombras", NULL
};

START_TEST(phase_a_draws_up_to_six_then_one)
{
	game g;
	game_open(&g, unseeded);
	static const char *const start[] = {
		"P1: setup 1", "P2: setup 1",
		"P1: draw 1", "P1: draw 1", "P1: draw 2", "P1: draw 2", "P1: draw 3", NULL
	};
	play_all(&g, start);
	/* Five of six: phase A is not over. */
	ck_assert_int_eq(play(&g, "P1", "end"), -1);
	ck_assert(has_code(&g.d, "enc.draw-short"));
	ck_assert_int_eq(play(&g, "P1", "draw 3"), 0);
	ck_assert_int_eq(play(&g, "P1", "draw 3"), -1);
	ck_assert(has_code(&g.d, "enc.draw-extra"));
	ck_assert_int_eq(play(&g, "P1", "end"), 0);
	/* Ben draws six; with six in hand Ana draws exactly one next. */
	static const char *const ben[] = {
		"P2: draw 1", "P2: draw 1", "P2: draw 2", "P2: draw 2", "P2: draw 3", "P2: draw 3",
		"P2: end", NULL
	};
	play_all(&g, ben);
	ck_assert_int_eq(g.st->draws_needed, 1);
	ck_assert_int_eq(play(&g, "P1", "draw 2"), 0);
	ck_assert_int_eq(play(&g, "P1", "draw 2"), -1);
	game_close(&g);
}
END_TEST

START_TEST(four_cards_down_then_only_for_cards_taken_back)
{
	game g;
	game_open(&g, unseeded);
	static const char *const moves[] = {
		"P1: setup 1", "P2: setup 1",
		"P1: draw 1 centinela-del-alba", "P1: draw 1 milicia", "P1: draw 1 escudero",
		"P1: draw 1 lancero", "P1: draw 2 cantera", "P1: draw 2 herrero",
		"P1: put centinela-del-alba visible", "P1: put milicia hidden",
		"P1: put escudero hidden a.3", "P1: put lancero visible", NULL
	};
	play_all(&g, moves);
	ck_assert_int_eq(play(&g, "P1", "put cantera visible"), -1);
	ck_assert(has_code(&g.d, "enc.put-limit"));
	/* Taking a hidden card back lets one more come down (rule 3). */
	ck_assert_int_eq(play(&g, "P1", "take b"), 0);
	ck_assert_int_eq(play(&g, "P1", "put cantera visible"), 0);
	ck_assert_int_eq(play(&g, "P1", "put herrero visible"), -1);
	/* A visible card is seen by all: '?' will not do. */
	ck_assert_int_eq(play(&g, "P1", "put ? visible"), -1);
	game_close(&g);
}
END_TEST

START_TEST(no_war_in_the_first_round_on_a_player_without_a_turn)
{
	game g;
	game_open(&g, unseeded);
	static const char *const moves[] = {
		"P1: setup 1", "P2: setup 1", "P1: draw 1", "P1: draw 1", "P1: draw 2",
		"P1: draw 2", "P1: draw 3", "P1: draw 3", NULL
	};
	play_all(&g, moves);
	ck_assert_int_eq(play(&g, "P1", "war P2"), -1);
	ck_assert(has_code(&g.d, "enc.war-first-round"));
	ck_assert_int_eq(play(&g, "P1", "war P1"), -1);
	ck_assert(has_code(&g.d, "enc.war-ally"));
	game_close(&g);
}
END_TEST

START_TEST(unseen_cards_are_unverified_and_must_fit_the_deck)
{
	game g;
	game_open(&g, unseeded);
	static const char *const moves[] = {
		"P1: setup 1", "P2: setup 1", "P1: draw 3 ?", "P1: draw 1", "P1: draw 1",
		"P1: draw 1", "P1: draw 1", "P1: draw 1", NULL
	};
	play_all(&g, moves);
	/* Pile 3 of the deck holds no Lancero: the unseen card cannot be one. */
	hg_diags_clear(&g.d);
	ck_assert_int_eq(play(&g, "P1", "put catapulta visible"), 0);
	ck_assert(has_code(&g.d, "enc.unseen-card"));
	ck_assert_uint_eq(g.d.nerrors, 0);
	ck_assert_uint_eq(g.d.nunverified, 1);
	ck_assert_int_eq(play(&g, "P1", "put dragon-de-bronce visible"), -1);
	ck_assert(has_code(&g.d, "enc.card-unavailable"));
	game_close(&g);
}
END_TEST

/* A card put down hidden as '?' is one the replay picks among the hand's
 * unseen cards, and with it a pile.  Named when it is turned up, a card
 * the picked pile cannot hold is mended (another unseen card of the hand
 * may have been the one): unverified, not illegal, whichever pile the pick
 * came from; a card of a pile no card has left stays illegal
 * (herald-encrucijada(7), HIDDEN CARDS). */
START_TEST(a_card_put_down_unseen_is_named_from_any_pile_drawn)
{
	/* centinela-del-alba lies only in pile 1, catapulta only in pile 3,
	 * cantera only in pile 2 (aurora-vanguardia) */
	static const char *const named[] = { "show b centinela-del-alba", "show b catapulta" };
	static const char *const moves[] = {
		"P1: setup 1", "P2: setup 1", "P1: draw 1", "P1: draw 1", "P1: draw 1",
		"P1: draw 3", "P1: draw 3", "P1: draw 3", "P1: put ? hidden", NULL
	};
	for (size_t k = 0; k < 2; k++) {
		game g;
		game_open(&g, unseeded);
		play_all(&g, moves);
		hg_diags_clear(&g.d);
		ck_assert_int_eq(play(&g, "P1", named[k]), 0);
		ck_assert(has_code(&g.d, "enc.unseen-card"));
		ck_assert_uint_eq(g.d.nerrors, 0);
		game_close(&g);
	}
	game g;
	game_open(&g, unseeded);
	play_all(&g, moves);
	ck_assert_int_eq(play(&g, "P1", "show b cantera"), -1);
	ck_assert(has_code(&g.d, "enc.card-unavailable"));
	game_close(&g);
}
END_TEST

/* "discard 2 from your table" (rule 2, Efectos: "Si no puedes descartar 2
 * cartas, este efecto no puede ser usado"): the card used counts among its
 * own discards (ruling 10), so it needs one card more on the table. */
START_TEST(discard_two_with_one_card_on_the_table)
{
	game g;
	game_open(&g, unseeded);
	static const char *const moves[] = {
		"P1: setup 1", "P2: setup 1", "P1: draw 3 bendicion-solar", "P1: draw 1",
		"P1: draw 1", "P1: draw 1", "P1: draw 1", "P1: draw 1",
		"P1: take a", "P1: take a", "P1: take a", "P1: take a", "P1: take a",
		"P1: take a", "P1: put bendicion-solar visible", NULL
	};
	play_all(&g, moves);
	/* Alone on the table: one card, two wanted. */
	ck_assert_int_eq(play(&g, "P1", "use bendicion-solar / bendicion-solar a"), -1);
	ck_assert(has_code(&g.d, "enc.effect-impossible"));
	hg_diags_clear(&g.d);
	/* With one card more it can, paying with itself: its +2 ends at once,
	 * its card having left the table (ruling 18). */
	ck_assert_int_eq(play(&g, "P1", "put ? hidden a"), 0);
	ck_assert_int_eq(play(&g, "P1", "use bendicion-solar / bendicion-solar a"), 0);
	ck_assert_uint_eq(g.d.nerrors, 0);
	ck_assert_int_eq(zone_count(g.st, 0, ENC_Z_DISCARD), 2);
	ck_assert_int_eq(zone_count(g.st, 0, ENC_Z_TOWN), 0);
	ck_assert_int_eq(g.st->nmods, 0);
	game_close(&g);

	/* Paid with two other cards, it stays, and so does its +2. */
	game_open(&g, unseeded);
	play_all(&g, moves);
	ck_assert_int_eq(play(&g, "P1", "put ? hidden a"), 0);
	ck_assert_int_eq(play(&g, "P1", "put ? hidden a"), 0);
	ck_assert_int_eq(play(&g, "P1", "use bendicion-solar / a a.2"), 0);
	ck_assert_int_eq(zone_count(g.st, 0, ENC_Z_DISCARD), 2);
	int b = card_index(&g, "bendicion-solar");
	for (int i = 0; i < g.st->p[0].ninst; i++)
		if (g.st->p[0].inst[i].card == b)
			ck_assert_int_eq(g.st->p[0].inst[i].zone, ENC_Z_TOWN);
	ck_assert_int_eq(g.st->nmods, 1);
	ck_assert_int_eq(g.st->mods[0].value, 2);
	game_close(&g);
}
END_TEST

/* Ruling 9: the text sets no cap on mending a tower; the Sacerdotisa's
 * "Tu Atempus recupera 4 de Resistencia" takes a whole tower above 50. */
START_TEST(tower_mended_above_its_printed_resistance)
{
	game g;
	game_open(&g, unseeded);
	static const char *const moves[] = {
		"P1: setup 1", "P2: setup 1", "P1: draw 3 sacerdotisa", "P1: draw 1",
		"P1: draw 1", "P1: draw 1", "P1: draw 1", "P1: draw 1",
		"P1: put sacerdotisa visible", NULL
	};
	play_all(&g, moves);
	ck_assert_int_eq(g.st->p[0].resistance, 50);
	ck_assert_int_eq(play(&g, "P1", "use sacerdotisa"), 0);
	ck_assert_int_eq(g.st->p[0].resistance, 54);
	game_close(&g);
}
END_TEST

/* Ruling 6: an army its owner empties in a battle (rule 3 lets it take
 * its hidden cards back at any moment) has run out: one wear, and the
 * attacker chooses another army. */
START_TEST(army_emptied_in_battle_runs_out)
{
	game g;
	game_open(&g, unseeded);
	static const char *const moves[] = {
		"P1: setup 1", "P2: setup 1",
		"P1: draw 1", "P1: draw 1", "P1: draw 2", "P1: draw 2", "P1: draw 3", "P1: draw 3",
		"P1: put ? hidden", "P1: end",
		"P2: draw 1", "P2: draw 1", "P2: draw 2", "P2: draw 2", "P2: draw 3", "P2: draw 3",
		"P2: end", "P1: draw 1", "P1: war P2", "P2: defend", "P1: army b", NULL
	};
	play_all(&g, moves);
	ck_assert_int_eq(g.st->war.att_army, 1);
	ck_assert_int_eq(play(&g, "P1", "take b"), 0);
	ck_assert_int_eq(g.st->war.att_army, -1);
	ck_assert_int_eq(g.st->p[0].wear, 1);
	ck_assert_int_eq(play(&g, "P1", "army a"), 0);
	game_close(&g);
}
END_TEST

/* Ruling 28: a tower a team shares counts once in the side's Gobernar
 * total, though each player sharing it has its resources. */
START_TEST(shared_tower_counts_once_for_gobernar)
{
	static const char *const teams[] = {
		"Players", "Ana; Ben; Carla; Diego", "Teams", "P1 P3; P2 P4",
		"Deck1", "aurora-vanguardia", "Deck2", "ocaso-sombras",
		"Deck3", "aurora-vanguardia", "Deck4", "ocaso-sombras", NULL
	};
	for (int shared = 0; shared < 2; shared++) {
		game g;
		game_open(&g, teams);
		ck_assert_ptr_nonnull(g.st);
		hg_state *s = g.st;
		if (shared)	/* as share_towers leaves Carla with no tower of her own */
			s->p[2].tower_seat = 0;
		int energia = -1;
		for (int r = 0; r < s->data->pool.nres; r++)
			if (strcmp(s->data->pool.res[r].id, "energia") == 0)
				energia = r;
		ck_assert_int_ge(energia, 0);
		int tower = s->data->pool.cards[s->p[0].tower].provides[energia];
		ck_assert_int_gt(tower, 0);
		/* 250 for a side of two in all, the tower's counted twice. */
		static int res[4][ENC_MAX_RES];
		memset(res, 0, sizeof res);
		res[0][energia] = 125;
		res[2][energia] = 125;
		const int *rows[4] = { res[0], res[1], res[2], res[3] };
		s->governed_checked = 0;
		hg_enc_check_victory(s, rows);
		ck_assert_int_eq(s->over, !shared);
		game_close(&g);
	}
}
END_TEST

/* ------------------------------------------------------------ notation */
static const struct spelling {
	const char *seat, *in, *out;	/* out NULL: a syntax error */
} spellings[] = {
	{ "P1", "robar 2 Gólem", "draw 2 golem" },
	{ "Ana", "bajar golem oculta B.2", "put golem hidden b.2" },
	{ "P1", "put golem hidden a.1", "put golem hidden a" },
	{ "P2", "usar torre / MAGIA", "use tower / magia" },
	{ "P1", "use saqueo > ben / golem", "use saqueo > P2 / golem" },
	{ "P1", "use espejo > P2 = tower P2 -3, discard P1 a.2", "use espejo > P2 = tower P2 -3, discard P1 a.2" },
	{ "P1", "use espejo > P2 = nada", "use espejo > P2 = nothing" },
	{ "P2", "objetivo torre", "target tower" },
	{ "P2", "target army c", "target army c" },
	{ "P2", "obligar b.3 muro", "force b.3 muro-espinoso" },
	{ "P1", "retirar", "regroup" },
	{ "P1", "setup 3 milicia ? lancero", "setup 3 milicia ? lancero" },
	{ "P1", "guerra P2", "war P2" },
	{ "P1", "put golem visible b", NULL },
	{ "P1", "show a.0", NULL },
	{ "P1", "use saqueo golem", NULL },
	{ "P1", "use tower = tower P2", NULL },
	{ "P1", "draw 4", NULL },
	{ "P1", "war P3", NULL },
	{ "P3", "end", NULL },
	{ "P1", "target torre-del-norte", NULL },
	{ "P1", "use atempus-del-alba", NULL },
};

START_TEST(spellings_parse_and_format)
{
	const struct spelling *c = &spellings[_i];
	game g;
	game_open(&g, unseeded);
	hg_action_text t;
	memset(&t, 0, sizeof t);
	hg_pos pos = { "test.hgn", 1, 1 };
	ck_assert_int_eq(hg_action_text_set(&t, c->seat, c->in, pos, &g.d), 0);
	hg_action *a = hg_enc_class.parse(g.st, &t, &g.d);
	if (!c->out) {
		ck_assert_msg(a == NULL, "'%s' parsed", c->in);
		ck_assert_uint_gt(g.d.nerrors, 0);
	} else {
		if (!a)
			dump(&g.d);
		ck_assert_ptr_nonnull(a);
		hg_buf seat, body;
		hg_buf_init(&seat);
		hg_buf_init(&body);
		hg_enc_class.format(g.st, a, &seat, &body);
		ck_assert_str_eq(body.data, c->out);
		ck_assert_str_eq(seat.data, strcmp(c->seat, "Ana") == 0 ? "P1" : c->seat);
		hg_buf_free(&seat);
		hg_buf_free(&body);
		hg_enc_class.free_action(a);
	}
	hg_action_text_free(&t);
	game_close(&g);
}
END_TEST

/* ------------------------------------------------------------ records */
/* Every valid record checks clean; the worked examples end where the text
 * says they do. */
static hg_state *check_record(const char *name, hg_session *session)
{
	char file[512];
	snprintf(file, sizeof file, RECORDS "/valid/%s", name);
	hg_diags d;
	hg_diags_init(&d);
	hg_parser *p = hg_parser_open_file(file, &d);
	ck_assert_ptr_nonnull(p);
	hg_game_record *rec = NULL;
	ck_assert_int_eq(hg_parser_next(p, &rec, &d), 1);
	hg_state *final = NULL;
	hg_check_result res;
	int rc = hg_check_game(session, rec, &d, NULL, &res, &final, NULL);
	if (rc != 0 || d.n)
		dump(&d);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(d.n, 0);
	hg_record_free(rec);
	hg_parser_close(p);
	hg_diags_free(&d);
	return final;
}

START_TEST(worked_examples)
{
	hg_session *session = hg_session_new(DATA);
	/* A value-3 card takes 3 from the tower, twice: 50, 47, 44. */
	hg_state *s = check_record("example-tower.hgn", session);
	ck_assert_int_eq(s->p[1].resistance, 44);
	hg_enc_class.free_state(s);
	/* The Lancero (5) lost to the Arpía (4) under wear 2. */
	s = check_record("example-wear.hgn", session);
	int arpia = -1;
	for (size_t i = 0; i < s->data->pool.ncards; i++)
		if (strcmp(s->data->pool.cards[i].id, "arpia") == 0)
			arpia = (int)i;
	int in_used = 0;
	for (int i = 0; i < s->p[1].ninst; i++)
		in_used |= s->p[1].inst[i].card == arpia && s->p[1].inst[i].zone == ENC_Z_STACK &&
			   s->p[1].stacks[(int)s->p[1].inst[i].stack].state == ENC_STACK_BLOCKED;
	ck_assert(in_used);
	hg_enc_class.free_state(s);
	/* Copa before basto: Ben's Cultista survived the Saqueo. */
	s = check_record("example-priority.hgn", session);
	ck_assert_int_eq(zone_count(s, 1, ENC_Z_TOWN), 4);
	ck_assert_int_eq(zone_count(s, 0, ENC_Z_DISCARD), 2);
	hg_enc_class.free_state(s);
	/* The Bendición was void: no +2 in force, one resource gift. */
	s = check_record("example-discard-void.hgn", session);
	ck_assert_int_eq(s->nmods, 1);
	ck_assert_int_eq(s->mods[0].value, 0);
	ck_assert_int_eq(s->mods[0].res_amount, 15);
	hg_enc_class.free_state(s);
	hg_session_free(session);
}
END_TEST

/* ------------------------------------------------------------ random */
/* Rule 2, Costo, as the rule text puts it, for the check below: passes
 * over the town, each activating what the active cards, the tower and the
 * effects on resources pay for, until nothing changes. */
static enc_set reference_activity(const hg_state *s, int seat, int res[ENC_MAX_RES])
{
	const enc_pool *pool = &s->data->pool;
	const enc_player *p = &s->p[seat];
	int base[ENC_MAX_RES] = { 0 }, drain[ENC_MAX_RES] = { 0 };
	for (int r = 0; r < pool->nres; r++)
		base[r] = pool->cards[p->tower].provides[r];
	for (int i = 0; i < s->nmods; i++) {
		const enc_mod *m = &s->mods[i];
		if (m->seat != seat || m->res < 0)
			continue;
		if (m->src_inst >= 0) {
			int z = s->p[m->src_seat].inst[m->src_inst].zone;
			if (z != ENC_Z_TOWN && z != ENC_Z_DUEL)
				continue;
		}
		if (m->res_amount > 0)
			base[m->res] += m->res_amount;
		else
			drain[m->res] -= m->res_amount;
	}
	enc_set active = 0;
	for (;;) {
		int raw[ENC_MAX_RES], shield[ENC_MAX_RES];
		for (int r = 0; r < ENC_MAX_RES; r++) {
			raw[r] = base[r];
			shield[r] = 0;
		}
		for (int i = 0; i < p->ninst; i++) {
			if (!((active >> i) & 1))
				continue;
			const enc_card *c = &pool->cards[p->inst[i].card];
			for (int r = 0; r < pool->nres; r++) {
				raw[r] += c->provides[r];
				if (c->civ >= 0 && pool->civs[c->civ].shielded)
					shield[r] += c->provides[r];
			}
		}
		for (int r = 0; r < ENC_MAX_RES; r++) {
			int floor = shield[r] < raw[r] ? shield[r] : raw[r];
			res[r] = raw[r] - drain[r] > floor ? raw[r] - drain[r] : floor;
		}
		enc_set more = active;
		for (int i = 0; i < p->ninst; i++) {
			if (p->inst[i].zone != ENC_Z_TOWN || ((active >> i) & 1))
				continue;
			const enc_card *c = &pool->cards[p->inst[i].card];
			int ok = 1;
			for (int r = 0; r < pool->nres; r++)
				ok &= res[r] >= c->cost[r];
			if (ok)
				more |= (enc_set)1 << i;
		}
		if (more == active)
			return active;
		active = more;
	}
}

/* Rule 4, Gobernar, as the rule text puts it, for the check below: while
 * the game goes on no team holds 150 of one resource (100 more for each
 * ally still in the game), whatever victory.c skipped looking at again. */
static void check_nobody_governs(const hg_state *s)
{
	if (s->over)
		return;
	const enc_pool *pool = &s->data->pool;
	for (int team = 0; team < s->nseats; team++) {
		int total[ENC_MAX_RES] = { 0 }, members = 0;
		for (int seat = 0; seat < s->nseats; seat++) {
			if (s->p[seat].team != team || s->p[seat].eliminated)
				continue;
			int res[ENC_MAX_RES];
			reference_activity(s, seat, res);
			for (int r = 0; r < pool->nres; r++)
				total[r] += res[r];
			members++;
		}
		for (int r = 0; members && r < pool->nres; r++)
			ck_assert_int_lt(total[r], ENC_WIN_RESOURCE + ENC_WIN_PER_ALLY * (members - 1));
	}
}

/* A zone's copies of a card in zone order (hg_enc_zone_cards) against the
 * zone's cards in order of their numbers, the ones wanted picked out. */
static void check_zone_cards(const hg_state *s, int seat, int zone)
{
	const enc_player *p = &s->p[seat];
	int cards[ENC_MAX_DECK + 1], ncards = 0;
	cards[ncards++] = -1;
	for (int i = 0; i < p->ninst; i++)
		if (p->inst[i].zone == zone && p->inst[i].card >= 0)
			cards[ncards++] = p->inst[i].card;
	for (int k = 0; k < ncards; k++) {
		int want[ENC_MAX_DECK], n = 0;
		/* Every instance of the zone by ascending number; the lower
		 * index first between equal numbers. */
		int taken[ENC_MAX_DECK] = { 0 };
		for (;;) {
			int best = -1;
			for (int i = 0; i < p->ninst; i++)
				if (!taken[i] && p->inst[i].zone == zone &&
				    (best < 0 || p->inst[i].order < p->inst[best].order))
					best = i;
			if (best < 0)
				break;
			taken[best] = 1;
			if (cards[k] < 0 ? p->inst[best].card < 0 : p->inst[best].card == cards[k])
				want[n++] = best;
		}
		int got[ENC_MAX_DECK];
		ck_assert_int_eq(hg_enc_zone_cards(s, seat, zone, cards[k], got), n);
		for (int i = 0; i < n; i++)
			ck_assert_int_eq(got[i], want[i]);
	}
}

/* The earliest instance (by order) of the seat's zone that holds `card`
 * (any card: -1), how many do, and whether they all hold one card. */
static int earliest_in(const hg_state *s, int seat, int zone, int card, int *n, int *alike)
{
	const enc_player *p = &s->p[seat];
	int best = -1;
	*n = 0;
	*alike = 1;
	for (int i = 0; i < p->ninst; i++) {
		if (p->inst[i].zone != zone || (card >= 0 && p->inst[i].card != card))
			continue;
		if (best >= 0 && p->inst[i].card != p->inst[best].card)
			*alike = 0;
		if (best < 0 || p->inst[i].order < p->inst[best].order)
			best = i;
		(*n)++;
	}
	return best;
}

/* Positions where enc_town_find chose a usable copy among several. */
static int town_finds_usable;

static void check_finds(const hg_state *s, int seat)
{
	const enc_player *p = &s->p[seat];
	int unseen = 0, n, alike;
	for (int i = 0; i < p->ninst; i++)
		unseen |= p->inst[i].zone == ENC_Z_HAND && p->inst[i].card < 0;
	/* the cards of the seat's deck (once each), and one it has not */
	for (int i = 0; i <= p->ninst; i++) {
		int card = i < p->ninst ? p->inst[i].card : (int)s->data->pool.ncards;
		int first = card >= 0;
		for (int j = 0; j < i && first && i < p->ninst; j++)
			first = p->inst[j].card != card;
		if (!first)
			continue;
		int want = earliest_in(s, seat, ENC_Z_HAND, card, &n, &alike);
		if (!unseen)
			ck_assert_int_eq(hg_enc_hand_find(s, seat, card), want);
		want = earliest_in(s, seat, ENC_Z_TOWN, card, &n, &alike);
		ck_assert_int_eq(hg_enc_town_find(s, seat, card, 0), want);
		/* usable: of the copies in town order (earliest first, the
		 * lower index first among equal orders), the first that is
		 * active and whose effect is unused; else the first */
		int res[ENC_MAX_RES];
		enc_set active = hg_enc_activity(s, seat, res);
		int want_usable = -1;
		for (int k = 0; k < p->ninst; k++) {
			const enc_inst *c = &p->inst[k];
			if (c->zone != ENC_Z_TOWN || c->card != card || !((active >> k) & 1) ||
			    hg_enc_effect_used(s, seat, k))
				continue;
			if (want_usable < 0 || c->order < p->inst[want_usable].order)
				want_usable = k;
		}
		if (want_usable >= 0 && n > 1)
			town_finds_usable++;
		ck_assert_int_eq(hg_enc_town_find(s, seat, card, 1),
				 want_usable >= 0 ? want_usable : want);
	}
	if (!unseen) {
		int want = earliest_in(s, seat, ENC_Z_HAND, -1, &n, &alike);
		ck_assert_int_eq(hg_enc_hand_find(s, seat, -2), want < 0 ? -1 : alike ? want : -3);
	}
}

/* What the engine keeps to go fast agrees with what it summarises: the
 * zone and stack sets with each card's zone, the remembered activity with
 * rule 2,
 * a game going on with rule 4. */
static void check_bookkeeping(const hg_state *s)
{
	for (int seat = 0; seat < s->nseats; seat++) {
		const enc_player *p = &s->p[seat];
		for (int z = ENC_Z_PILE; z <= ENC_Z_DUEL; z++) {
			enc_set want = 0;
			for (int i = 0; i < p->ninst; i++)
				if (p->inst[i].zone == z)
					want |= (enc_set)1 << i;
			ck_assert_uint_eq(p->in_zone[z], want);
		}
		for (int pile = 0; pile < ENC_PILES; pile++) {
			enc_set want = 0;
			for (int i = 0; i < p->ninst; i++)
				if (p->inst[i].pile == pile)
					want |= (enc_set)1 << i;
			ck_assert_uint_eq(p->from_pile[pile], want);
		}
		for (int st = 0; st < ENC_MAX_STACKS; st++) {
			enc_set want = 0;
			for (int i = 0; i < p->ninst; i++)
				if (p->inst[i].zone == ENC_Z_STACK && p->inst[i].stack == st)
					want |= (enc_set)1 << i;
			ck_assert_uint_eq(p->in_stack[st], want);
		}
		/* A stack's cards are numbered 0 to n-1 from the top (state.c,
		 * enc_stack_list places each by its number) ... */
		for (int st = 0; st < ENC_MAX_STACKS; st++) {
			uint64_t seen = 0;
			int n = 0;
			for (int i = 0; i < p->ninst; i++) {
				if (!((p->in_stack[st] >> i) & 1))
					continue;
				int o = p->inst[i].order;
				ck_assert_int_ge(o, 0);
				ck_assert_int_lt(o, ENC_MAX_DECK);
				ck_assert(!((seen >> o) & 1));
				seen |= (uint64_t)1 << o;
				n++;
			}
			ck_assert_uint_eq(seen, n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1);
		}
		/* enc_stack_at (state.c: the card numbered pos - 1) against the
		 * stack sorted by number. */
		for (int st = 0; st < ENC_MAX_STACKS; st++) {
			int v[ENC_MAX_DECK], n = 0;
			for (int i = 0; i < p->ninst; i++) {
				if (!((p->in_stack[st] >> i) & 1))
					continue;
				int k = n++;
				while (k > 0 && p->inst[v[k - 1]].order > p->inst[i].order) {
					v[k] = v[k - 1];
					k--;
				}
				v[k] = i;
			}
			for (int pos = 1; pos <= n; pos++)
				ck_assert_int_eq(hg_enc_stack_at(s, seat, st, pos), v[pos - 1]);
			ck_assert_int_eq(hg_enc_stack_at(s, seat, st, 0), n ? v[0] : -1);
			ck_assert_int_eq(hg_enc_stack_at(s, seat, st, n + 1), -1);
		}
		/* enc_hand_find and enc_town_find (state.c: the copies gathered
		 * as a set, one copy taken as it is) against a scan of every
		 * instance: for each card of the seat's deck, the earliest copy
		 * in the zone; '?' in a hand is its earliest card when all are
		 * alike. */
		check_finds(s, seat);
		/* enc_shared.copies (state.c, with a Seed): each card's
		 * instances, against a look at every instance's card. */
		for (size_t card = 0; s->sh->copies && card < s->data->pool.ncards; card++) {
			enc_set want = 0;
			for (int i = 0; i < p->ninst; i++)
				if (p->inst[i].card == (int)card)
					want |= (enc_set)1 << i;
			ck_assert_uint_eq(enc_card_copies(s, seat, (int)card), want);
		}
		ck_assert(s->seeded ? s->sh->copies != NULL : s->sh->copies == NULL);
		/* ... and what is left of a pile is in index order (enc_pile_top
		 * takes the lowest index). */
		for (int pile = 0; pile < ENC_PILES; pile++) {
			int last = -1;
			for (int i = 0; i < p->ninst; i++) {
				if (p->inst[i].zone != ENC_Z_PILE || p->inst[i].pile != pile)
					continue;
				ck_assert_int_gt(p->inst[i].order, last);
				last = p->inst[i].order;
			}
		}
		check_zone_cards(s, seat, ENC_Z_TOWN);
		check_zone_cards(s, seat, ENC_Z_HAND);
		/* No stack is blocked (rule 6.D3) unless hg_state.stacks_blocked
		 * says one may be. */
		for (int st = 0; !s->stacks_blocked && st < ENC_MAX_STACKS; st++)
			ck_assert_int_ne(p->stacks[st].state, ENC_STACK_BLOCKED);
		/* Rule 4, Conquistar and Resistir: while victory.c need not look
		 * (hg_state.loss_unchecked clear), no seat in the game has lost. */
		if (!s->over && !s->loss_unchecked && !p->eliminated) {
			ck_assert_int_gt(p->resistance, 0);
			for (int pile = 0; pile < ENC_PILES; pile++) {
				int left = 0;
				for (int i = 0; i < p->ninst; i++)
					left += p->inst[i].zone == ENC_Z_PILE && p->inst[i].pile == pile;
				ck_assert_int_gt(left, 0);
			}
		}
		/* While hg_state.zones_settled says no town or duel zone has
		 * changed since enc_settle last found nothing to change, the seat's
		 * town and duel zone are what that settle left. */
		if (s->mods_settled && s->zones_settled) {
			ck_assert_uint_eq(p->memo_town, p->in_zone[ENC_Z_TOWN]);
			ck_assert_uint_eq(p->settled_duel, p->in_zone[ENC_Z_DUEL]);
		}
		/* The memo (often worked out from the memo of a smaller town, or
		 * of one that lost cards that gave nothing: activation.c,
		 * fixed_point and memo_start) ... */
		int res[ENC_MAX_RES], want_res[ENC_MAX_RES];
		enc_set want = reference_activity(s, seat, want_res);
		/* A settled position's memo (enc_settle's loop, or its path for
		 * grown towns) is the activity itself, as the checks of
		 * rule 4 and of the duel cards read it. */
		if (s->mods_settled && s->zones_settled) {
			ck_assert_uint_eq(p->memo_active, want);
			for (int r = 0; r < ENC_MAX_RES; r++)
				ck_assert_int_eq(p->memo_res[r], want_res[r]);
		}
		enc_set active = hg_enc_activity(s, seat, res);
		ck_assert_uint_eq(active, want);
		for (int r = 0; r < ENC_MAX_RES; r++)
			ck_assert_int_eq(res[r], want_res[r]);
		/* ... and the activity worked out afresh, without it. */
		hg_state *forgot = malloc(sizeof *forgot);
		ck_assert_ptr_nonnull(forgot);
		memcpy(forgot, s, sizeof *forgot);
		forgot->p[seat].memo_town = ENC_NO_TOWN;
		active = hg_enc_activity(forgot, seat, res);
		free(forgot);
		ck_assert_uint_eq(active, want);
		for (int r = 0; r < ENC_MAX_RES; r++)
			ck_assert_int_eq(res[r], want_res[r]);
	}
	check_nobody_governs(s);
}

/* A gain of resources that wins (rule 4, Gobernar) ends the game at the
 * next action, however little else that action changes: victory.c looks
 * at Gobernar again only when resources may have changed. */
static void check_gain_noticed(const hg_state *s, const hg_action *a)
{
	if (s->nmods >= ENC_MAX_MODS)
		return;
	hg_state *c = hg_enc_class.clone(s);
	enc_mod m;
	memset(&m, 0, sizeof m);
	m.seat = (signed char)s->current;
	m.src_seat = (signed char)s->current;
	m.src_inst = -1;	/* the tower's: holds */
	m.inst = -1;
	m.res = 0;
	m.res_amount = 999;
	m.dur = ENC_DUR_WAR;
	m.war = -1;		/* no war ends it */
	c->mods[c->nmods++] = m;
	c->mods_settled = 0;	/* as enc_mod_add does: the modifiers changed */
	hg_diags d;
	hg_diags_init(&d);
	/* (Unless the seat falls first: its last draw empties a pile.) */
	if (hg_enc_class.apply(c, a, &d) == 0 && !c->p[m.seat].eliminated)
		ck_assert_ptr_nonnull(hg_enc_class.result(c));
	hg_diags_free(&d);
	hg_enc_class.free_state(c);
}

/* Each seat's remembered activity and resources, settled two ways: the
 * same (before the whole states are compared, to say where they differ). */
static void assert_same_memos(const hg_state *quick, const hg_state *full)
{
	for (int seat = 0; seat < quick->nseats; seat++) {
		ck_assert_uint_eq(quick->p[seat].memo_active, full->p[seat].memo_active);
		for (int r = 0; r < ENC_MAX_RES; r++)
			ck_assert_int_eq(quick->p[seat].memo_res[r], full->p[seat].memo_res[r]);
	}
}

/* enc_settle's shortcut (activation.c, nothing_to_settle) against the loop
 * it skips: where it says there is nothing to settle, settling with the
 * loop leaves the very same state.  Counts the positions where modifiers
 * were in force (the shortcut then rests on hg_state.mods_settled). */
static int settle_checked_with_mods;

static void check_settle_shortcut(const hg_state *s)
{
	if (!hg_enc_settle_skips(s))
		return;
	hg_state *quick = hg_enc_class.clone(s), *full = hg_enc_class.clone(s);
	hg_enc_settle_with(quick, 1);
	hg_enc_settle_with(full, 0);
	/* What the loop notes of itself, that the shortcut leaves alone. */
	quick->mods_settled = full->mods_settled;
	for (int seat = 0; seat < s->nseats; seat++)
		quick->p[seat].settled_duel = full->p[seat].settled_duel;
	assert_same_memos(quick, full);
	ck_assert_int_eq(quick->nmods, full->nmods);
	ck_assert_msg(memcmp(quick, full, sizeof *quick) == 0,
		      "enc_settle's shortcut and its loop leave different states");
	settle_checked_with_mods += s->nmods > 0;
	hg_enc_class.free_state(quick);
	hg_enc_class.free_state(full);
}

/* enc_settle's path for towns that have only grown (activation.c,
 * towns_only_grew) against its loop.  A card of a seat's hand is put into
 * its town as enc_to_zone does (a card put down visible); or, where that
 * path must not be taken, a card of the town goes to the discard pile, or
 * a card joins the town as a modifier on resources begins.  Settled both
 * ways, the position holds the very same.  Counts the positions where
 * the path was taken, and those with modifiers in force. */
static int grown_settles, grown_settles_with_mods;

static void move_card(hg_state *s, int seat, int inst, enc_zone to)
{
	enc_player *p = &s->p[seat];
	p->in_zone[(int)p->inst[inst].zone] &= ~((enc_set)1 << inst);
	p->in_zone[to] |= (enc_set)1 << inst;
	p->inst[inst].zone = (signed char)to;
	p->inst[inst].used_seat = -1;
	p->inst[inst].order = (short)(s->seq++ & 0x7fff);
	s->zones_settled = 0;
}

/* A modifier from the seat's tower on one resource, for this turn. */
static enc_mod tower_mod(int seat, int res, int amount)
{
	enc_mod m;
	memset(&m, 0, sizeof m);
	m.seat = m.src_seat = (signed char)seat;
	m.src_inst = -1;	/* the tower's */
	m.inst = -1;
	m.res = (signed char)res;
	m.res_amount = (short)amount;
	m.dur = ENC_DUR_TURN;
	return m;
}

static void check_grown_town(const hg_state *s, hg_prng *r)
{
	if (hg_enc_class.result(s))
		return;
	int seat = (int)hg_prng_below(r, (uint32_t)s->nseats);
	/* 0, 1: grow (1: with a stale settled_duel); 2: lose; 3: grow as a
	 * modifier begins */
	int how = (int)hg_prng_below(r, 4);
	const enc_player *p = &s->p[seat];
	int some[ENC_MAX_DECK], n = 0;
	for (int i = 0; i < p->ninst; i++)
		if (p->inst[i].zone == (how == 2 ? ENC_Z_TOWN : ENC_Z_HAND) && p->inst[i].card >= 0)
			some[n++] = i;
	if (n == 0 || (how == 3 && s->nmods >= ENC_MAX_MODS))
		return;
	hg_state *grown = hg_enc_class.clone(s);
	move_card(grown, seat, some[hg_prng_below(r, (uint32_t)n)],
		  how == 2 ? ENC_Z_DISCARD : ENC_Z_TOWN);
	if (how == 1 && grown->nmods == 0) {
		/* With no modifier, mods_settled may be clear and settled_duel
		 * stale (nothing_to_settle leaves them so): the loop sets both. */
		grown->mods_settled = 0;
		for (int k = 0; k < s->nseats; k++)
			grown->p[k].settled_duel = ~(enc_set)0;
	}
	if (how == 3) {
		int res = (int)hg_prng_below(r, (uint32_t)s->data->pool.nres);
		grown->mods[grown->nmods++] =
			tower_mod(seat, res, hg_prng_below(r, 2) ? 5 : -5);
		grown->mods_settled = 0;	/* as enc_mod_add does */
	}
	int path = hg_enc_settle_path(grown);
	hg_state *quick = hg_enc_class.clone(grown), *full = hg_enc_class.clone(grown);
	hg_enc_settle_with(quick, 1);
	hg_enc_settle_with(full, 0);
	assert_same_memos(quick, full);
	ck_assert_int_eq(quick->over, full->over);
	ck_assert_msg(memcmp(quick, full, sizeof *quick) == 0,
		      "enc_settle for grown towns and its loop leave different states");
	if (path == 2) {
		grown_settles++;
		grown_settles_with_mods += s->nmods > 0;
	}
	hg_enc_class.free_state(quick);
	hg_enc_class.free_state(full);
	hg_enc_class.free_state(grown);
}

/* enc_activity from a memo the position has moved away from (activation.c,
 * memo_start): a gain on resources begins or a drain ends (the memo is a
 * start under other effects), a drain begins or a gain ends or a town card
 * leaves (only the memo's active cards may stay active), a card joins the
 * town; one change or two.  Worked out from the memo, the activity is the
 * reference's.  Counts the starts taken (hg_enc_activity_start). */
static int activity_starts[5];

static void check_activity_starts(const hg_state *s, hg_prng *r)
{
	if (hg_enc_class.result(s))
		return;
	int seat = (int)hg_prng_below(r, (uint32_t)s->nseats);
	hg_state *c = hg_enc_class.clone(s);
	for (int changes = 1 + (int)hg_prng_below(r, 2); changes > 0; changes--) {
		/* 0: a gain begins; 1: a drain; 2: a modifier on resources
		 * ends; 3: a town card leaves; 4: a hand card joins the town */
		int how = (int)hg_prng_below(r, 5);
		if (how <= 1 && c->nmods < ENC_MAX_MODS) {
			int res = (int)hg_prng_below(r, (uint32_t)s->data->pool.nres);
			int amount = (1 + (int)hg_prng_below(r, 6)) * (how == 0 ? 1 : -1);
			c->mods[c->nmods++] = tower_mod(seat, res, amount);
		} else if (how == 2) {
			for (int i = 0; i < c->nmods; i++)
				if (c->mods[i].seat == seat && c->mods[i].res >= 0) {
					memmove(&c->mods[i], &c->mods[i + 1],
						sizeof c->mods[0] * (size_t)(c->nmods - i - 1));
					c->nmods--;
					break;
				}
		} else if (how >= 3) {
			const enc_player *p = &c->p[seat];
			int some[ENC_MAX_DECK], n = 0;
			for (int i = 0; i < p->ninst; i++)
				if (p->inst[i].zone == (how == 3 ? ENC_Z_TOWN : ENC_Z_HAND) &&
				    p->inst[i].card >= 0)
					some[n++] = i;
			if (n > 0)
				move_card(c, seat, some[hg_prng_below(r, (uint32_t)n)],
					  how == 3 ? ENC_Z_DISCARD : ENC_Z_TOWN);
		}
	}
	activity_starts[hg_enc_activity_start(c, seat)]++;
	int res[ENC_MAX_RES], want_res[ENC_MAX_RES];
	enc_set want = reference_activity(c, seat, want_res);
	ck_assert_uint_eq(hg_enc_activity(c, seat, res), want);
	for (int k = 0; k < ENC_MAX_RES; k++)
		ck_assert_int_eq(res[k], want_res[k]);
	hg_enc_class.free_state(c);
}

/* Two states that played the same from the same position hold the same
 * (what state.c's copies copy: the rest is never read). */
static void assert_same_live_state(const hg_state *a, const hg_state *b, const char *text)
{
	ck_assert_msg(memcmp(a, b, offsetof(hg_state, p)) == 0 &&
		      memcmp(a->p, b->p, sizeof a->p[0] * (size_t)a->nseats) == 0 &&
		      memcmp(a->mods, b->mods, sizeof a->mods[0] * (size_t)a->nmods) == 0 &&
		      memcmp(a->bans, b->bans, sizeof a->bans[0] * (size_t)a->nbans) == 0 &&
		      memcmp(&a->ex, &b->ex, offsetof(enc_exchange, uses)) == 0 &&
		      memcmp(a->ex.uses, b->ex.uses, sizeof a->ex.uses[0] * (size_t)a->ex.n) == 0,
		      "'%s' leaves different states with and without the shortcut", text);
}

typedef struct effect_counts {
	int uses, passes;	/* compared */
	int impossible;		/* of them, illegal because a step could not be done */
} effect_counts;

/* A use or a pass, applied with the shortcut that an effect which cannot
 * fail after a change is tried (use) or resolved (pass) without a copy of
 * the state (effect-run.c, fails_after_change), and with a copy every
 * time: the same verdict, diagnostics and position. */
static void compare_effect_shortcut(const hg_state *s, const hg_action *a, const char *text,
				    effect_counts *n)
{
	hg_state *quick = hg_enc_class.clone(s), *copied = hg_enc_class.clone(s);
	hg_diags dq, dc;
	hg_diags_init(&dq);
	hg_diags_init(&dc);
	int use = a->kind == ENC_A_USE;
	int rq = use ? hg_enc_apply_use_with(quick, a, &dq, 1) : hg_enc_apply_pass_with(quick, a, &dq, 1);
	int rc = use ? hg_enc_apply_use_with(copied, a, &dc, 0) : hg_enc_apply_pass_with(copied, a, &dc, 0);
	ck_assert_msg(rq == rc, "'%s' is %s with the shortcut only", text, rq ? "illegal" : "legal");
	ck_assert_uint_eq(dq.n, dc.n);
	for (size_t i = 0; i < dq.n; i++) {
		ck_assert_str_eq(dq.v[i].code, dc.v[i].code);
		ck_assert_str_eq(dq.v[i].message, dc.v[i].message);
		ck_assert_uint_eq(dq.v[i].line, dc.v[i].line);
		ck_assert_uint_eq(dq.v[i].col, dc.v[i].col);
		ck_assert_uint_eq(dq.v[i].nnotes, dc.v[i].nnotes);
		for (size_t k = 0; k < dq.v[i].nnotes; k++)
			ck_assert_str_eq(dq.v[i].notes[k], dc.v[i].notes[k]);
	}
	/* After an illegal action the position is spoiled, and only freed. */
	if (rq == 0)
		assert_same_live_state(quick, copied, text);
	if (use)
		n->uses++;
	else
		n->passes++;
	n->impossible += has_code(&dq, "enc.effect-impossible");
	hg_diags_free(&dq);
	hg_diags_free(&dc);
	hg_enc_class.free_state(quick);
	hg_enc_class.free_state(copied);
}

/* The position changed so that effects fail more often, part-way or at
 * once: how 0, no room for a restriction (forbid); 1, every pile empty
 * (draw); 2, every town empty (discard, destroy); 3, no war (wear,
 * boosts that last a war, attack again). */
static hg_state *spoilt(const hg_state *s, int how)
{
	hg_state *x = hg_enc_class.clone(s);
	if (how == 0) {
		for (int i = x->nbans; i < ENC_MAX_BANS; i++) {
			memset(&x->bans[i], 0, sizeof x->bans[i]);
			x->bans[i].seat = -1;
		}
		x->nbans = ENC_MAX_BANS;
	} else if (how == 3) {
		x->war.stage = ENC_WAR_NONE;
	} else {
		int zone = how == 1 ? ENC_Z_PILE : ENC_Z_TOWN;
		for (int seat = 0; seat < x->nseats; seat++) {
			enc_player *p = &x->p[seat];
			for (int i = 0; i < p->ninst; i++)
				if (p->inst[i].zone == zone)
					p->inst[i].zone = ENC_Z_DISCARD;
			p->in_zone[ENC_Z_DISCARD] |= p->in_zone[zone];
			p->in_zone[zone] = 0;
		}
	}
	return x;
}

/* The listed uses and passes, also in spoilt positions, and each use with
 * one of its words changed (to another card, a stack, '?'):
 * compare_effect_shortcut. */
static void check_effect_shortcuts(const hg_state *s, const hg_action_list *l, hg_prng *r,
				   effect_counts *n)
{
	const enc_pool *pool = &s->data->pool;
	hg_buf seat, body;
	hg_buf_init(&seat);
	hg_buf_init(&body);
	for (size_t i = 0; i < l->n; i++) {
		const hg_action *a = l->v[i];
		if (a->kind != ENC_A_USE && a->kind != ENC_A_PASS)
			continue;
		hg_buf_clear(&seat);
		hg_buf_clear(&body);
		hg_enc_class.format(s, a, &seat, &body);
		compare_effect_shortcut(s, a, body.data, n);
		for (int how = 0; how < 4; how++) {
			hg_state *x = spoilt(s, how);
			compare_effect_shortcut(x, a, body.data, n);
			hg_enc_class.free_state(x);
		}
		if (a->kind != ENC_A_USE)
			continue;
		for (int k = 0; k < 3; k++) {
			/* body with its word number w (not the verb) changed */
			char words[32][64];
			int nw = 0;
			for (const char *p = body.data; *p && nw < 32;) {
				size_t len = strcspn(p, " ");
				snprintf(words[nw++], sizeof words[0], "%.*s", (int)len, p);
				p += len;
				while (*p == ' ')
					p++;
			}
			if (nw < 2)
				break;
			int w = 1 + (int)hg_prng_below(r, (uint32_t)(nw - 1));
			static const char *const others[] = { "a", "b", "a.2", "c.3", "?", "1", "2" };
			uint32_t pick = hg_prng_below(r, (uint32_t)(pool->ncards + HG_ARRAY_LEN(others)));
			snprintf(words[w], sizeof words[0], "%s", pick < pool->ncards ?
				 pool->cards[pick].id : others[pick - pool->ncards]);
			hg_buf changed;
			hg_buf_init(&changed);
			for (int j = 0; j < nw; j++)
				hg_buf_printf(&changed, "%s%s", j ? " " : "", words[j]);
			hg_action_text t;
			memset(&t, 0, sizeof t);
			hg_diags dt;
			hg_diags_init(&dt);
			if (hg_action_text_set(&t, seat.data, changed.data, (hg_pos){ "e.hgn", 1, 1 }, &dt) == 0) {
				hg_action *b = hg_enc_class.parse(s, &t, &dt);
				if (b && b->kind == ENC_A_USE)
					compare_effect_shortcut(s, b, changed.data, n);
				hg_enc_class.free_action(b);
			}
			hg_action_text_free(&t);
			hg_diags_free(&dt);
			hg_buf_free(&changed);
		}
	}
	hg_buf_free(&seat);
	hg_buf_free(&body);
}

/* Random games end; every listed action is legal; each formats and parses
 * back to the same text. */
START_TEST(random_games_end_and_round_trip)
{
	static const char *const deck_ids[] = {
		"aurora-vanguardia", "aurora-cosecha", "ocaso-sombras", "ocaso-ritual",
		"concordia-mixta"
	};
	hg_prng r, grow;
	char seed[32];
	snprintf(seed, sizeof seed, "unit-random-%d", _i);
	hg_prng_seed(&r, seed);
	hg_prng_seed(&grow, "unit-grown-town");	/* apart: r picks the game */
	int players = 2 + _i % 5;
	hg_buf names;
	hg_buf_init(&names);
	const char *tags[2 * 10 + 1];
	char deckname[8][16];
	int nt = 0;
	for (int i = 0; i < players; i++)
		hg_buf_printf(&names, "%sN%d", i ? "; " : "", i + 1);
	tags[nt++] = "Players";
	tags[nt++] = names.data;
	for (int i = 0; i < players; i++) {
		snprintf(deckname[i], sizeof deckname[i], "Deck%d", i + 1);
		tags[nt++] = deckname[i];
		tags[nt++] = deck_ids[hg_prng_below(&r, 5)];
	}
	tags[nt++] = "Seed";
	tags[nt++] = seed;
	if (_i % 3 == 2 && players >= 4) {
		tags[nt++] = "Teams";
		tags[nt++] = players == 4 ? "P1 P3; P2 P4" : players == 5 ? "P1 P3 P5; P2 P4" : "P1 P3 P5; P2 P4 P6";
	}
	tags[nt] = NULL;
	game g;
	game_open(&g, tags);
	ck_assert_ptr_nonnull(g.st);
	hg_buf seat, body, again_seat, again_body;
	hg_buf_init(&seat);
	hg_buf_init(&body);
	hg_buf_init(&again_seat);
	hg_buf_init(&again_body);
	size_t steps = 0;
	effect_counts effects = { 0, 0, 0 };
	while (!hg_enc_class.result(g.st)) {
		ck_assert_uint_lt(steps++, 20000);
		hg_action_list l = { 0 };
		hg_enc_class.legal(g.st, &l);
		ck_assert_uint_gt(l.n, 0);
		for (size_t i = 0; i < l.n; i++) {
			hg_buf_clear(&seat);
			hg_buf_clear(&body);
			hg_enc_class.format(g.st, l.v[i], &seat, &body);
			hg_action_text t;
			memset(&t, 0, sizeof t);
			hg_pos pos = { "rt", 1, 1 };
			ck_assert_int_eq(hg_action_text_set(&t, seat.data, body.data, pos, &g.d), 0);
			hg_action *a = hg_enc_class.parse(g.st, &t, &g.d);
			if (!a)
				dump(&g.d);
			ck_assert_ptr_nonnull(a);
			hg_buf_clear(&again_seat);
			hg_buf_clear(&again_body);
			hg_enc_class.format(g.st, a, &again_seat, &again_body);
			ck_assert_str_eq(body.data, again_body.data);
			hg_enc_class.free_action(a);
			hg_action_text_free(&t);
		}
		check_effect_shortcuts(g.st, &l, &r, &effects);
		hg_action *pick = l.v[hg_prng_below(&r, (uint32_t)l.n)];
		if (steps % 16 == 0)
			check_gain_noticed(g.st, pick);
		hg_diags_clear(&g.d);
		int rc = hg_enc_class.apply(g.st, pick, &g.d);
		if (rc != 0)
			dump(&g.d);
		ck_assert_int_eq(rc, 0);
		ck_assert_uint_eq(g.d.n, 0);
		check_bookkeeping(g.st);
		check_settle_shortcut(g.st);
		check_grown_town(g.st, &grow);
		check_activity_starts(g.st, &grow);
		for (size_t i = 0; i < l.n; i++)
			hg_enc_class.free_action(l.v[i]);
		free(l.v);
		hg_buf render;
		hg_buf_init(&render);
		hg_enc_class.render(g.st, &render);
		ck_assert_ptr_nonnull(render.data);
		hg_buf_free(&render);
	}
	hg_action_list l = { 0 };
	hg_enc_class.legal(g.st, &l);
	ck_assert_uint_eq(l.n, 0);
	free(l.v);
	ck_assert_ptr_null(hg_enc_class.to_move(g.st));
	/* The shortcut was taken with modifiers in force, not only without. */
	ck_assert_int_gt(settle_checked_with_mods, 0);
	/* enc_town_find chose among several copies. */
	if (steps >= 500)
		ck_assert_int_gt(town_finds_usable, 0);
	/* So was the path for grown towns (a short game may have had no
	 * modifier where it was). */
	ck_assert_int_gt(grown_settles, 0);
	if (grown_settles >= 20)
		ck_assert_int_gt(grown_settles_with_mods, 0);
	/* So was each start of enc_activity from a memo that no longer
	 * holds. */
	for (int k = 1; k <= 4 && steps >= 300; k++)
		ck_assert_msg(activity_starts[k] > 0, "enc_activity never started as %d", k);
	/* Effects were compared, and in longer games some whose steps could
	 * not be done (in the spoilt positions, mostly). */
	ck_assert_int_gt(effects.uses, 0);
	if (effects.uses >= 100)
		ck_assert_int_gt(effects.impossible, 0);
	hg_buf_free(&seat);
	hg_buf_free(&body);
	hg_buf_free(&again_seat);
	hg_buf_free(&again_body);
	hg_buf_free(&names);
	game_close(&g);
}
END_TEST

/* ------------------------------------------------------------ words */
/* The reader (notation.c) on the actions legal() offers in random games,
 * as herald writes them and changed, and on actions of random words. */
static void assert_same_pos(hg_pos a, hg_pos b, const char *what, const char *text)
{
	ck_assert_msg(a.line == b.line && a.col == b.col &&
		      (a.file == b.file || (a.file && b.file && strcmp(a.file, b.file) == 0)),
		      "'%s': %s at %u:%u, not %u:%u", text, what, a.line, a.col, b.line, b.col);
}

static void assert_same_item(const enc_item *a, const enc_item *b, const char *text)
{
	ck_assert_msg(a->kind == b->kind && a->group == b->group && a->stack == b->stack &&
		      a->pos == b->pos && a->card == b->card && a->number == b->number &&
		      a->inst == b->inst, "'%s': items differ", text);
	assert_same_pos(a->where, b->where, "item", text);
}

static void assert_same_action(const hg_action *a, const hg_action *b, const char *text)
{
	ck_assert_msg(a->kind == b->kind && a->seat == b->seat && a->pile == b->pile &&
		      a->card == b->card && a->visible == b->visible &&
		      a->has_ref == b->has_ref && a->other == b->other && a->tgt == b->tgt &&
		      a->army == b->army && a->src == b->src && a->src_card == b->src_card &&
		      a->nitems == b->nitems && a->ngroups == b->ngroups &&
		      a->nout == b->nout && a->has_outcome == b->has_outcome,
		      "'%s': the actions differ", text);
	assert_same_pos(a->pos, b->pos, "pos", text);
	assert_same_pos(a->seat_pos, b->seat_pos, "seat_pos", text);
	assert_same_pos(a->card_pos, b->card_pos, "card_pos", text);
	assert_same_pos(a->other_pos, b->other_pos, "other_pos", text);
	assert_same_pos(a->src_pos, b->src_pos, "src_pos", text);
	assert_same_item(&a->ref, &b->ref, text);
	assert_same_item(&a->ref2, &b->ref2, text);
	for (int i = 0; i < a->nitems; i++)
		assert_same_item(&a->items[i], &b->items[i], text);
	for (int i = 0; i < a->nout; i++) {
		const enc_outcome *x = &a->out[i], *y = &b->out[i];
		ck_assert_msg(x->kind == y->kind && x->seat == y->seat && x->amount == y->amount,
			      "'%s': outcomes differ", text);
		assert_same_item(&x->item, &y->item, text);
		assert_same_pos(x->where, y->where, "outcome", text);
	}
}

typedef struct read_back {
	int read;		/* texts read into an action */
	int refused;		/* texts refused with an error */
} read_back;

/* Reads "seat: body": either it is an action, which herald writes in a
 * form that reads back to the same (written the same again), or it is
 * refused with an error; never both, never neither. */
static void read_or_refuse(const hg_state *s, const char *seat, const char *body, read_back *n)
{
	hg_action_text t;
	memset(&t, 0, sizeof t);
	hg_diags d;
	hg_diags_init(&d);
	int rc = hg_action_text_set(&t, seat, body, (hg_pos){ "w.hgn", 4, 9 }, &d);
	if (rc != 0) {
		hg_diags_free(&d);
		hg_action_text_free(&t);
		return;
	}
	const char *text = t.text ? t.text : "";
	hg_action *a = hg_enc_class.parse(s, &t, &d);
	ck_assert_msg((a == NULL) == (d.nerrors > 0), "'%s: %s': %s, %zu errors", seat, text,
		      a ? "read" : "refused", d.nerrors);
	if (a) {
		hg_buf ws, wb, xs, xb;
		hg_buf_init(&ws);
		hg_buf_init(&wb);
		hg_buf_init(&xs);
		hg_buf_init(&xb);
		hg_enc_class.format(s, a, &ws, &wb);
		hg_action_text u;
		memset(&u, 0, sizeof u);
		ck_assert_int_eq(hg_action_text_set(&u, ws.data, wb.data, (hg_pos){ "w.hgn", 5, 1 }, &d), 0);
		hg_action *b = hg_enc_class.parse(s, &u, &d);
		ck_assert_msg(b != NULL, "'%s' is written '%s', which does not read", text, wb.data);
		hg_enc_class.format(s, b, &xs, &xb);
		ck_assert_str_eq(ws.data, xs.data);
		ck_assert_str_eq(wb.data, xb.data);
		hg_enc_class.free_action(b);
		hg_action_text_free(&u);
		hg_buf_free(&ws);
		hg_buf_free(&wb);
		hg_buf_free(&xs);
		hg_buf_free(&xb);
		n->read++;
	} else {
		n->refused++;
	}
	hg_enc_class.free_action(a);
	hg_diags_free(&d);
	hg_action_text_free(&t);
}

/* Words for random and changed actions: stack references good and bad
 * (the Kelvin sign and the long s are no letters), cards, keywords. */
static const char *const some_words[] = {
	"1", "2", "3", "4", "0", "12", "?", "a", "B", "z", "b.2", "C.10", "b.0", "a.00",
	"a.99999999999", "a.", "a.x", "ab", "k", "\xe2\x84\xaa", "\xc5\xbf", "\xe2\x84\xaa.2",
	"golem", "G\xc3\xb3lem", "GOLEM", "muro-espinoso", "centinela-del-alba", "lancero",
	"torre-del-norte", "magia", "energia", "hidden", "visible", "oculta", "OCULTO",
	"Visible", "tower", "Torre", "army", "ejercito", "ej\xc3\xa9rcito", "EJERCITO", ">",
	"/", "=", ",", "+", "-3", "7", "nothing", "nada", "discard", "wear", "P1", "P2", "P3",
	"ben", "Ana", "x", "draw", "use", "\xc3\xa9", "#1",
};

static const char *const some_verbs[] = {
	"setup", "preparar", "draw", "robar", "put", "bajar", "show", "mostrar", "take",
	"tomar", "move", "mover", "use", "usar", "pass", "pasar", "war", "guerra", "defend",
	"defender", "yield", "invadir", "army", "ejercito", "ej\xc3\xa9rcito", "reveal",
	"revelar", "fight", "batalla", "batallar", "target", "objetivo", "retarget",
	"cambiar", "force", "obligar", "regroup", "withdraw", "reagrupar", "retirar", "end",
	"fin", "DRAW", "Show", "tAkE", "ta\xe2\x84\xaa" "e", "drawx", "dra", "en", "re",
	"bat", "ejerc", "?", "1", "/",
	/* as long as a verb with its first letter, another word (verb_of) */
	"drew", "pat", "shoe", "mostraz", "batallaz", "objetivx", "tomaz", "invadix",
	"fighx", "forcf", "revelax", "reagrupax",
};

/* One of the words of `body` (split at spaces) changed, dropped, added,
 * recased, or the verb given in Spanish, into out. */
static void change_action(hg_prng *r, const char *body, char *out, size_t size)
{
	char copy[256];
	snprintf(copy, sizeof copy, "%s", body);
	const char *w[40];
	size_t n = 0;
	for (char *tok = strtok(copy, " "); tok && n + 1 < HG_ARRAY_LEN(w); tok = strtok(NULL, " "))
		w[n++] = tok;
	char recased[64] = "";
	size_t k = n ? hg_prng_below(r, (uint32_t)n) : 0;
	switch (hg_prng_below(r, 5)) {
	case 0:
		if (n)
			w[k] = some_words[hg_prng_below(r, HG_ARRAY_LEN(some_words))];
		break;
	case 1:
		if (n) {
			memmove(w + k, w + k + 1, (n - k - 1) * sizeof w[0]);
			n--;
		}
		break;
	case 2:
		k = hg_prng_below(r, (uint32_t)n + 1);
		memmove(w + k + 1, w + k, (n - k) * sizeof w[0]);
		w[k] = some_words[hg_prng_below(r, HG_ARRAY_LEN(some_words))];
		n++;
		break;
	case 3:
		if (n) {
			snprintf(recased, sizeof recased, "%s", w[k]);
			for (char *c = recased; *c; c++)
				if (hg_prng_below(r, 2))
					*c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 :
						    *c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
			w[k] = recased;
		}
		break;
	default:
		if (n)
			w[0] = some_verbs[hg_prng_below(r, HG_ARRAY_LEN(some_verbs))];
		break;
	}
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%s", i ? " " : "", w[i]);
}

/* A use's choices tell a stack ref from a card by its word (notation.c,
 * is_ref_text), as the grammar's `stack ref` says: one ASCII letter, then
 * nothing or '.' and digits.  The pattern here is that definition's
 * statement, the reader's oracle. */
START_TEST(ref_words_are_what_the_pattern_says)
{
	hg_pattern *ref = hg_pattern_new("(?-i:[a-zA-Z])(?:\\.[0-9]+)?");
	hg_prng r;
	hg_prng_seed(&r, "ref-words");
	static const char *const pieces[] = {
		"a", "Z", "b", ".", "2", "0", "x", "-", "\xe2\x84\xaa", "\xc5\xbf", "\xc3\xa9", "?", "9"
	};
	char w[64];
	int refs = 0;
	for (size_t i = 0; i < HG_ARRAY_LEN(some_words); i++) {
		hg_match m;
		ck_assert_int_eq(hg_enc_is_ref_word(some_words[i]),
				 hg_pattern_match(ref, some_words[i], &m));
	}
	for (int t = 0; t < 20000; t++) {
		size_t n = 1 + hg_prng_below(&r, 5), len = 0;
		w[0] = '\0';
		for (size_t k = 0; k < n; k++) {
			const char *p = pieces[hg_prng_below(&r, (uint32_t)HG_ARRAY_LEN(pieces))];
			len += (size_t)snprintf(w + len, sizeof w - len, "%s", p);
		}
		hg_match m;
		int want = hg_pattern_match(ref, w, &m);
		ck_assert_msg(hg_enc_is_ref_word(w) == want, "'%s' is%s a REF", w, want ? "" : " not");
		refs += want;
	}
	ck_assert_int_gt(refs, 0);
	hg_pattern_free(ref);
}
END_TEST

/* Actions herald writes, the same changed (a word changed, dropped,
 * added, recased; the verb another), random words after a verb, and every
 * verb and keyword with a byte changed: each is read and written back to
 * itself, or refused with an error. */
START_TEST(changed_actions_read_or_refused)
{
	static const char *const players[] = {
		"Players", "Ana; Ben", "Deck1", "aurora-vanguardia", "Deck2", "ocaso-sombras",
		"Seed", "words", NULL
	};
	static const char *const seats[] = { "P1", "P2", "ana", "BEN", "P3", "Cy" };
	hg_prng r;
	hg_prng_seed(&r, "enc-words");
	read_back well = { 0 }, changed = { 0 };
	hg_buf seat, body;
	hg_buf_init(&seat);
	hg_buf_init(&body);
	char text[512];
	for (int round = 0; round < 6; round++) {
		game g;
		game_open(&g, players);
		ck_assert_ptr_nonnull(g.st);
		while (!hg_enc_class.result(g.st)) {
			hg_action_list l = { 0 };
			hg_enc_class.legal(g.st, &l);
			ck_assert_uint_gt(l.n, 0);
			for (int k = 0; k < 3; k++) {
				hg_action *a = l.v[hg_prng_below(&r, (uint32_t)l.n)];
				hg_buf_clear(&seat);
				hg_buf_clear(&body);
				hg_enc_class.format(g.st, a, &seat, &body);
				read_or_refuse(g.st, seat.data, body.data, &well);
				change_action(&r, body.data, text, sizeof text);
				read_or_refuse(g.st, seats[hg_prng_below(&r, HG_ARRAY_LEN(seats))],
						text, &changed);
			}
			hg_action *pick = l.v[hg_prng_below(&r, (uint32_t)l.n)];
			hg_diags_clear(&g.d);
			ck_assert_int_eq(hg_enc_class.apply(g.st, pick, &g.d), 0);
			for (size_t i = 0; i < l.n; i++)
				hg_enc_class.free_action(l.v[i]);
			free(l.v);
		}
		/* Actions of random words after a verb. */
		for (int i = 0; i < 3000; i++) {
			size_t len = (size_t)snprintf(text, sizeof text, "%s",
						      some_verbs[hg_prng_below(&r, HG_ARRAY_LEN(some_verbs))]);
			for (uint32_t n = hg_prng_below(&r, 6); n > 0; n--)
				len += (size_t)snprintf(text + len, sizeof text - len, " %s",
							some_words[hg_prng_below(&r, HG_ARRAY_LEN(some_words))]);
			read_or_refuse(g.st, seats[hg_prng_below(&r, HG_ARRAY_LEN(seats))], text,
					&changed);
		}
		/* Every verb with one of its bytes changed (a letter, a capital,
		 * another letter, a digit, a '-') and with a word after it or
		 * none: verb_of reads a verb by its length and words of four
		 * bytes from its start and its end, which must tell them all. */
		if (round == 0)
			for (size_t i = 0; i < HG_ARRAY_LEN(some_verbs); i++) {
				size_t vlen = strlen(some_verbs[i]);
				for (size_t at = 0; at < vlen && vlen < 64; at++)
					for (int how = 0; how < 4; how++) {
						char verb[64];
						memcpy(verb, some_verbs[i], vlen + 1);
						char c = verb[at];
						verb[at] = how == 0 ? (char)(c >= 'a' && c <= 'z' ? c - 32 : c) :
							   how == 1 ? (char)(c == 'z' ? 'a' : c + 1) :
							   how == 2 ? '7' : '-';
						snprintf(text, sizeof text, "%s", verb);
						read_or_refuse(g.st, "P1", text, &changed);
						snprintf(text, sizeof text, "%s b.2 golem", verb);
						read_or_refuse(g.st, "P2", text, &changed);
					}
			}
		/* ... and so for the keywords read_shape reads (word_is). */
		static const char *const keyed[][2] = {
			{ "put golem ", "hidden" }, { "put golem ", "visible" },
			{ "put lancero ", "oculta" }, { "put golem ", "oculto b.2" },
			{ "target ", "tower" }, { "target ", "torre" }, { "target ", "army b" },
			{ "target ", "ejercito c" }, { "use ", "tower / energia" },
			{ "use ", "torre" },
		};
		for (size_t i = 0; round == 0 && i < HG_ARRAY_LEN(keyed); i++) {
			size_t klen = strcspn(keyed[i][1], " ");
			for (size_t at = 0; at < klen; at++)
				for (int how = 0; how < 4; how++) {
					char word[64];
					snprintf(word, sizeof word, "%s", keyed[i][1]);
					char c = word[at];
					word[at] = how == 0 ? (char)(c >= 'a' && c <= 'z' ? c - 32 : c) :
						   how == 1 ? (char)(c == 'z' ? 'a' : c + 1) :
						   how == 2 ? '7' : '-';
					snprintf(text, sizeof text, "%s%s", keyed[i][0], word);
					read_or_refuse(g.st, "P1", text, &changed);
				}
		}
		game_close(&g);
	}
	hg_buf_free(&seat);
	hg_buf_free(&body);
	ck_assert_int_gt(well.read, 2000);
	ck_assert_int_eq(well.refused, 0);
	ck_assert_int_gt(changed.read, 1000);
	ck_assert_int_gt(changed.refused, 10000);
}
END_TEST

/* enc_parse keeps the action enc_free_action gives back for the next
 * parse (enc_shared.actions, action-cache.h): an action parsed into that block is the
 * one parsed into a new block, with nothing of the action before it; and
 * an action outlives the state it was parsed in. */
static hg_action *parse_text(const hg_state *s, const char *seat, const char *body,
			     hg_action_text *t, hg_diags *d)
{
	memset(t, 0, sizeof *t);
	ck_assert_int_eq(hg_action_text_set(t, seat, body, (hg_pos){ "r.hgn", 2, 5 }, d), 0);
	hg_action *a = hg_enc_class.parse(s, t, d);
	if (!a)
		dump(d);
	ck_assert_ptr_nonnull(a);
	return a;
}

START_TEST(parsed_actions_reuse_their_block)
{
	static const char *const players[] = {
		"Players", "Ana; Ben", "Deck1", "aurora-vanguardia", "Deck2", "ocaso-sombras",
		"Seed", "reuse", NULL
	};
	static const char *const bodies[] = {
		"draw 2", "put golem hidden b.2", "show a", "use tower > P2 / a b.2 3 energia = tower P2 -3, wear P1 2",
		"setup 2 golem ? lancero", "war P2", "target army c", "force b.3 golem", "end",
	};
	game g;
	game_open(&g, players);
	ck_assert_ptr_nonnull(g.st);
	hg_action_text t, u;
	for (size_t i = 0; i < HG_ARRAY_LEN(bodies); i++)
		for (size_t k = 0; k < HG_ARRAY_LEN(bodies); k++) {
			/* bodies[i] leaves its block behind ... */
			hg_action *before = parse_text(g.st, "P1", bodies[i], &t, &g.d);
			uintptr_t block = (uintptr_t)before;
			hg_enc_class.free_action(before);
			hg_action_text_free(&t);
			/* ... which bodies[k] is parsed into: the same as anew. */
			hg_action *a = parse_text(g.st, "P1", bodies[k], &t, &g.d);
			ck_assert_msg((uintptr_t)a == block, "the block was not kept for the next parse");
			/* a is held: b is read into a new block */
			hg_action *b = parse_text(g.st, "P1", bodies[k], &u, &g.d);
			ck_assert_ptr_ne(a, b);
			assert_same_action(a, b, bodies[k]);
			hg_buf x, y, xs, ys;
			hg_buf_init(&x);
			hg_buf_init(&y);
			hg_buf_init(&xs);
			hg_buf_init(&ys);
			hg_enc_class.format(g.st, a, &xs, &x);
			hg_enc_class.format(g.st, b, &ys, &y);
			ck_assert_str_eq(x.data, y.data);
			hg_buf_free(&x);
			hg_buf_free(&y);
			hg_buf_free(&xs);
			hg_buf_free(&ys);
			hg_enc_class.free_action(b);
			hg_action_text_free(&u);
			if (i + 1 == HG_ARRAY_LEN(bodies) && k + 1 == HG_ARRAY_LEN(bodies)) {
				/* The state goes first: the action holds on to what
				 * it goes back to (the sanitizers watch this). */
				hg_enc_class.free_state(g.st);
				g.st = NULL;
				ck_assert_int_eq(a->kind, ENC_A_END);
			}
			hg_enc_class.free_action(a);
			hg_action_text_free(&t);
		}
	ck_assert_uint_eq(g.d.nerrors, 0);
	game_close(&g);
}
END_TEST

START_TEST(generated_tags_set_up)
{
	hg_datapath path;
	hg_datapath_init(&path, DATA);
	hg_game_record *rec = hg_record_new("gen");
	hg_record_set_tag(rec, "Game", "encrucijada");
	hg_load_ctx ctx = { &path, rec, "." };
	hg_diags d;
	hg_diags_init(&d);
	hg_gdata *data = hg_enc_class.load(&ctx, NULL, &d);
	ck_assert_ptr_nonnull(data);
	hg_prng r;
	hg_prng_seed(&r, "tags");
	ck_assert_int_eq(hg_enc_class.gen_tags(data, &r, 4, "teams", rec, &d), 0);
	ck_assert_str_eq(hg_record_tag_value(rec, "Teams"), "P1 P3; P2 P4");
	ck_assert_ptr_nonnull(hg_record_tag_value(rec, "Seed"));
	hg_state *s = hg_enc_class.setup(data, rec, &d);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(s->nseats, 4);
	ck_assert_int_eq(s->nteams, 2);
	hg_enc_class.free_state(s);
	ck_assert_int_eq(hg_enc_class.gen_tags(data, &r, 7, NULL, rec, &d), -1);
	ck_assert(has_code(&d, "enc.players"));
	ck_assert_int_eq(hg_enc_class.gen_tags(data, &r, 2, "solo", rec, &d), -1);
	ck_assert(has_code(&d, "enc.variant"));
	hg_enc_class.unload(data);
	hg_record_free(rec);
	hg_diags_free(&d);
	hg_datapath_free(&path);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("encrucijada");
	TCase *tc = tcase_create("data");
	tcase_add_test(tc, shipped_decks_are_legal);
	tcase_add_test(tc, illegal_decks_match_their_expect_files);
	tcase_add_test(tc, collector_numbers_repeat);
	tcase_add_loop_test(tc, card_file_diagnostics, 0, (int)HG_ARRAY_LEN(card_cases));
	suite_add_tcase(s, tc);
	tc = tcase_create("rules");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, seed_shuffles_each_pile_as_documented);
	tcase_add_test(tc, draw_against_the_seed);
	tcase_add_test(tc, card_ids_find_as_names_do);
	tcase_add_test(tc, cost_pairs_cover_as_the_cost_does);
	tcase_add_test(tc, phase_a_draws_up_to_six_then_one);
	tcase_add_test(tc, four_cards_down_then_only_for_cards_taken_back);
	tcase_add_test(tc, no_war_in_the_first_round_on_a_player_without_a_turn);
	tcase_add_test(tc, unseen_cards_are_unverified_and_must_fit_the_deck);
	tcase_add_test(tc, a_card_put_down_unseen_is_named_from_any_pile_drawn);
	tcase_add_test(tc, discard_two_with_one_card_on_the_table);
	tcase_add_test(tc, tower_mended_above_its_printed_resistance);
	tcase_add_test(tc, army_emptied_in_battle_runs_out);
	tcase_add_test(tc, shared_tower_counts_once_for_gobernar);
	tcase_add_test(tc, worked_examples);
	tcase_add_loop_test(tc, spellings_parse_and_format, 0, (int)HG_ARRAY_LEN(spellings));
	suite_add_tcase(s, tc);
	tc = tcase_create("notation");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, changed_actions_read_or_refused);
	tcase_add_test(tc, ref_words_are_what_the_pattern_says);
	tcase_add_test(tc, parsed_actions_reuse_their_block);
	suite_add_tcase(s, tc);
	tc = tcase_create("random");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, random_games_end_and_round_trip, 0, 25);
	tcase_add_test(tc, generated_tags_set_up);
	suite_add_tcase(s, tc);
	return s;
}
