/* engine.c - Encrucijada: Guerra de las Épocas as an hg_game_class: the data
 * a record needs (card pool and decks), and the dispatch of each action to
 * the rule it is checked by.  An action is applied in place; after an
 * illegal one the position is spoiled and only freed (hg_game_class.apply). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc.h"
#include "enc-deck.h"

static const char *const aliases[] = {
	"enc", "encrucijada-guerra-de-las-epocas", "guerra-de-las-epocas", NULL
};

static const char *const variants[] = {
	"all-against-all: every player for itself (the default; rule 1, \"todos contra todos\")",
	"teams: two teams, odd seats against even seats (rule 1, \"en equipos\"); any split with a Teams tag",
	NULL
};

static const char *const data_files[] = {
	"encrucijada/resources.yaml",
	"encrucijada/towers.yaml",
	"encrucijada/cards-aurora.yaml",
	"encrucijada/cards-ocaso.yaml",
	"encrucijada/cards-pacificadores.yaml",
	"encrucijada/decks/aurora-vanguardia.yaml",
	"encrucijada/decks/aurora-cosecha.yaml",
	"encrucijada/decks/ocaso-sombras.yaml",
	"encrucijada/decks/ocaso-ritual.yaml",
	"encrucijada/decks/concordia-mixta.yaml",
	NULL
};

/* ------------------------------------------------------------ data */
static void unload(hg_gdata *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->ndecks; i++)
		enc_deck_free(g->decks[i]);
	free(g->decks);
	hg_names_free(g->deck_names);
	enc_pool_free(&g->pool);
	enc_verbs_free(g->verbs);
	free(g);
}

/* The tags with which a record names its own data files
 * (herald-encrucijada(7), DATA): CardFile relative to the record only,
 * Deck<n>File also as a bundled deck of that name. */
static const hg_data_tag data_tags[] = {
	{ "CardFile", NULL, 1 },
	{ "Deck1File", "encrucijada/decks", 0 },
	{ "Deck2File", "encrucijada/decks", 0 },
	{ "Deck3File", "encrucijada/decks", 0 },
	{ "Deck4File", "encrucijada/decks", 0 },
	{ "Deck5File", "encrucijada/decks", 0 },
	{ "Deck6File", "encrucijada/decks", 0 },
	{ NULL, NULL, 0 }
};
_Static_assert(sizeof data_tags / sizeof data_tags[0] == ENC_MAX_SEATS + 2,
	       "a Deck<n>File tag for each seat");

static int add_deck(hg_gdata *g, enc_deck *deck, int bundled, hg_diags *d)
{
	if (HG_TRY_GROW(g->decks, g->capdecks, g->ndecks + 1) != 0) {
		enc_deck_free(deck);
		return -1;	/* (the unit of work reports it) */
	}
	int k = (int)g->ndecks;
	g->decks[g->ndecks++] = deck;
	if (!bundled)
		return k;
	int clash;
	if (hg_names_add(g->deck_names, deck->id, k, &clash) != 0 ||
	    hg_names_add(g->deck_names, deck->name, k, &clash) != 0) {
		hg_diag_add(d, HG_ERROR, deck->pos, "data.duplicate-id",
			    "deck '%s' has the id or name of deck '%s'", deck->id,
			    g->decks[clash]->id);
		return -1;
	}
	return k;
}

/* CardFile: the user's own card files (';'-separated) instead of ours. */
static int load_pool(hg_gdata *g, const hg_load_ctx *ctx, int *own, hg_diags *d)
{
	const hg_tag *t = ctx->rec ? hg_record_tag(ctx->rec, "CardFile") : NULL;
	*own = t != NULL;
	if (!t)
		return enc_pool_load_bundled(&g->pool, ctx->path, d);
	int rc = 0;
	char **files;
	size_t nfiles = hg_data_tag_files(&data_tags[0], t->value, &files);
	hg_data_kind kind = { N_("a card file"), enc_card_file_keys };
	for (size_t i = 0; i < nfiles; i++) {
		hg_data_name name = { files[i], N_("the CardFile tag"), t->pos, NULL, NULL };
		hg_ydoc *doc = hg_data_load(ctx, &name, &kind, d);
		if (!doc || enc_pool_load_doc(&g->pool, doc, d) != 0)
			rc = -1;
	}
	hg_strv_free(files, nfiles);
	if (rc == 0)
		rc = enc_pool_finish(&g->pool, t->pos, d);
	return rc;
}

static int load_bundled_decks(hg_gdata *g, const hg_load_ctx *ctx, hg_diags *d)
{
	int rc = 0;
	hg_pos nowhere = { NULL, 0, 0 };
	for (size_t i = 0; enc_bundled_deck_files[i]; i++) {
		char *path = hg_datapath_find(ctx->path, enc_bundled_deck_files[i]);
		if (!path) {
			hg_diag_add(d, HG_ERROR, nowhere, "enc.missing-data",
				    "cannot find the data file '%s'", enc_bundled_deck_files[i]);
			rc = -1;
			continue;
		}
		enc_deck *deck = enc_deck_load(&g->pool, path, d);
		free(path);
		if (!deck || add_deck(g, deck, 1, d) < 0)
			rc = -1;
	}
	return rc;
}

/* Deck<n>File: a deck file relative to the record, else a bundled deck file
 * of that name along the data path. */
static int load_seat_decks(hg_gdata *g, const hg_load_ctx *ctx, hg_diags *d)
{
	int rc = 0;
	hg_data_kind kind = { N_("a deck file"), enc_deck_file_keys };
	for (int seat = 0; seat < ENC_MAX_SEATS; seat++) {
		g->seat_file[seat] = -1;
		const hg_data_tag *tag = &data_tags[1 + seat];
		const hg_tag *t = ctx->rec ? hg_record_tag(ctx->rec, tag->name) : NULL;
		if (!t)
			continue;
		/* translated here, as the tag's name is not known before;
		 * hg_data_load's own translation leaves it as it is */
		char named_by[64];
		snprintf(named_by, sizeof named_by, _("the %s tag"), tag->name);
		hg_data_name name = { t->value, named_by, t->pos, NULL, tag->search };
		hg_ydoc *doc = hg_data_load(ctx, &name, &kind, d);
		if (!doc) {
			rc = -1;
			continue;
		}
		enc_deck *deck = enc_deck_load_doc(&g->pool, doc, d);
		if (!deck) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, t->pos, "enc.deck-illegal",
						  "the deck of seat %d, '%s', breaks the construction rules (rule 1)",
						  seat + 1, t->value);
			hg_diag_note(dg, "`herald deck check FILE` reports the same");
			rc = -1;
			continue;
		}
		int k = add_deck(g, deck, 0, d);
		if (k < 0)
			rc = -1;
		else
			g->seat_file[seat] = k;
	}
	return rc;
}

static hg_gdata *load(const hg_load_ctx *ctx, hg_buf *key, hg_diags *d)
{
	/* Short of memory inside a unit of work (util.c), a step fails or
	 * leaves a part out, and the data is dropped at the end. */
	hg_gdata *g = hg_try_calloc(1, sizeof *g);
	if (!g)
		return NULL;
	enc_pool_init(&g->pool);
	g->deck_names = hg_names_new();
	int own;
	int rc = load_pool(g, ctx, &own, d);
	if (rc == 0 && !own)
		rc = load_bundled_decks(g, ctx, d);
	if (rc == 0)
		rc = load_seat_decks(g, ctx, d);
	if (rc != 0 || hg_alloc_lost()) {
		unload(g);
		return NULL;
	}
	g->verbs = enc_verbs_new();
	if (key)
		hg_buf_printf(key, "encrucijada: %zu cards from %zu files, %zu decks",
			      g->pool.ncards, g->pool.nfiles, g->ndecks);
	return g;
}

/* ------------------------------------------------------------ play */
static int dispatch(hg_state *s, const hg_action *a, hg_diags *d)
{
	switch (a->kind) {
	case ENC_A_SETUP: return enc_apply_setup(s, a, d);
	case ENC_A_DRAW: return enc_apply_draw(s, a, d);
	case ENC_A_PUT: return enc_apply_put(s, a, d);
	case ENC_A_SHOW: return enc_apply_show(s, a, d);
	case ENC_A_TAKE: return enc_apply_take(s, a, d);
	case ENC_A_MOVE: return enc_apply_move(s, a, d);
	case ENC_A_USE: return enc_apply_use(s, a, d);
	case ENC_A_PASS: return enc_apply_pass(s, a, d);
	case ENC_A_WAR: return enc_apply_war(s, a, d);
	case ENC_A_DEFEND: return enc_apply_defend(s, a, d);
	case ENC_A_YIELD: return enc_apply_yield(s, a, d);
	case ENC_A_ARMY: return enc_apply_army(s, a, d);
	case ENC_A_REVEAL: return enc_apply_reveal(s, a, d);
	case ENC_A_FIGHT: return enc_apply_fight(s, a, d);
	case ENC_A_TARGET: return enc_apply_target(s, a, d);
	case ENC_A_RETARGET: return enc_apply_retarget(s, a, d);
	case ENC_A_FORCE: return enc_apply_force(s, a, d);
	case ENC_A_REGROUP: return enc_apply_regroup(s, a, d);
	case ENC_A_END: return enc_apply_end(s, a, d);
	}
	return -1;
}

/* A player out of the game in its own turn: the turn passes on.  Called
 * only when it must (enc_apply looks after every action), out of line:
 * the look is all that most actions pay. */
static ENC_NOINLINE void pass_turn_of_fallen(hg_state *s)
{
	enc_war_end(s);
	s->ex.active = 0;
	enc_expire_turn_end(s);
	for (int i = 0; i < s->nseats; i++) {
		s->p[i].wear = 0;
		s->p[i].credits = 0;
	}
	enc_start_turn(s, enc_next_seat(s, s->current));
	enc_settle(s);
}

/* An illegal action reports why; what it would have left unverified on
 * the way does not matter any more.  Off the path of a legal action, whose
 * frame it would make larger. */
static ENC_NOINLINE void move_errors(hg_diags *d, const hg_diags *from)
{
	for (size_t i = 0; i < from->n; i++) {
		const hg_diag *x = &from->v[i];
		if (x->severity != HG_ERROR)
			continue;
		hg_pos pos = { x->file, x->line, x->col };
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, x->code, "%s", x->message);
		for (size_t k = 0; k < x->nnotes; k++)
			hg_diag_note(dg, "%s", x->notes[k]);
		hg_diag_copy_rests_on(dg, x);
	}
}

int enc_apply(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (s->over) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.game-over", "the game is over: %s",
			    s->result);
		return -1;
	}
	/* In place: an illegal action spoils the state (hg_game_class.apply).
	 * Its diagnostics are gathered apart, so that a step that fails
	 * without one still reports "illegal action". */
	hg_diags local = { 0 };	/* hg_diags_init */
	int rc = dispatch(s, a, &local);
	if (rc == 0 && local.nerrors == 0) {
		if (s->war.stage != ENC_WAR_NONE)
			enc_war_check_armies(s);
		enc_settle(s);
		if (!s->over && s->phase != ENC_PH_SETUP && !enc_alive(s, s->current))
			pass_turn_of_fallen(s);
		if (local.n)
			hg_diags_move(d, &local);
	} else {
		rc = -1;
		if (local.nerrors == 0)
			hg_diag_add(d, HG_ERROR, a->pos, "enc.illegal", "illegal action");
		move_errors(d, &local);
	}
	if (local.v)	/* nearly every action reports nothing: nothing to free */
		hg_diags_free(&local);
	return rc;
}

const char *enc_result(const hg_state *s)
{
	return s->over ? s->result : NULL;
}

unsigned enc_turn(const hg_state *s)
{
	return s->turn;
}

/* Who acts next: an exchange's target, the side a war waits for, else the
 * player whose turn (or set-up) it is. */
int enc_actor(const hg_state *s)
{
	if (s->over)
		return -1;
	if (s->ex.active)
		return s->ex.target;
	if (s->war.stage != ENC_WAR_NONE)
		return enc_war_waiting(s);
	return s->current;
}

const char *enc_to_move(const hg_state *s)
{
	int a = enc_actor(s);
	return a < 0 ? NULL : enc_seat_name(a);
}

const hg_game_class hg_enc_class = {
	.id = "encrucijada",
	.title = "Encrucijada: Guerra de las Épocas",
	.aliases = aliases,
	.variants = variants,
	.data_files = data_files,
	.data_tags = data_tags,
	.min_seats = ENC_MIN_SEATS,
	.max_seats = ENC_MAX_SEATS,
	.load = load,
	.unload = unload,
	.setup = enc_setup,
	.clone = enc_clone,
	.free_state = enc_free_state,
	.parse = enc_parse,
	.format = enc_format,
	.apply = enc_apply,
	.free_action = enc_free_action,
	.legal = enc_legal,
	.result = enc_result,
	.turn = enc_turn,
	.to_move = enc_to_move,
	.render = enc_render,
	.gen_tags = enc_gen_tags,
	.check_deck = hg_enc_deck_check_with,
	.chance_fill = enc_chance_fill,
	.seat_find = enc_seat_find,
	.seat_name = enc_view_seat_name,
	.view_action = enc_view_action,
	.names_chance = enc_names_chance,
	.position_json = hg_enc_position_json,
	.facts = enc_facts,
	.fact = enc_fact,
	.reports_enomem = HG_REPORTS_ALL,
};
