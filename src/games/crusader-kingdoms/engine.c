/* engine.c - Crusader Kingdoms (Jesús Peralta; Worthington Publishing):
 * the game class.  Set-up from the tags (7.1), the order of play (3), the
 * dispatch of each action to the rule that governs it, and the tags of a
 * generated game.
 *
 * A record's move number is the turn (1 to 3): `2.` opens the second turn.
 *
 * The 1- and 2-player scenarios (section 8) have a side no player
 * controls: it draws and plays its rounds in the record like the others,
 * and the engine checks that each of its rounds is the one its script
 * dictates (script.c).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ck.h"

/* The room on the stack for a stream's name (a longer one is malloc'd). */
#define STREAM_NAME_ROOM 128

/* The name of a stream, "<seed>/<purpose>[/<n>]", put piece by piece in
 * buf (or, for a long seed, a malloc'd copy the caller frees): a game
 * seeds up to twenty streams, and formatting cost more than the seeding. */
static char *stream_name(char buf[STREAM_NAME_ROOM], const char *seed, const char *purpose,
			 int n)
{
	char digits[16];
	size_t ls = strlen(seed), lp = strlen(purpose), nd = 0;
	if (n >= 0) {
		unsigned v = (unsigned)n;
		do
			digits[nd++] = (char)('0' + v % 10);
		while ((v /= 10) > 0);
	}
	size_t size = ls + 1 + lp + 1 + nd + 1;
	char *key = size <= STREAM_NAME_ROOM ? buf : hg_try_malloc(size);
	if (!key)
		return NULL;	/* (the unit of work reports it) */
	char *at = key;
	memcpy(at, seed, ls);
	at += ls;
	*at++ = '/';
	memcpy(at, purpose, lp);
	at += lp;
	if (n >= 0) {
		*at++ = '/';
		while (nd > 0)
			*at++ = digits[--nd];
	}
	*at = '\0';
	return key;
}

static void seed_stream(hg_prng *r, const char *seed, const char *purpose, int n)
{
	char buf[STREAM_NAME_ROOM], *name = stream_name(buf, seed, purpose, n);
	hg_prng_seed(r, name ? name : "");	/* ("": no memory, reported) */
	if (name != buf)
		free(name);
}

/* The dice: the same stream, drawn from all game long, made eight blocks
 * at a time (hg_prng_wide). */
static void seed_dice(hg_prng_wide *r, const char *seed)
{
	char buf[STREAM_NAME_ROOM], *name = stream_name(buf, seed, "dice", -1);
	hg_prng_wide_seed(r, name ? name : "");
	if (name != buf)
		free(name);
}

/* Rule 7.1: one castle, regular side up, in each deployment area; empty
 * areas are independent (in section 8 the Muslims deploy in every other
 * area, 8.1, without castle tokens: an area's owner is what counts).  Each
 * deck is shuffled (cards.c, CHANCE).  NULL short of memory (the unit of
 * work reports it). */
hg_state *hg_ck_state_new(const hg_gdata *g, const ck_scenario *sc, const char *seed)
{
	/* (the loader allows CK_MAX_SIDES factions at most) */
	hg_state *s = hg_try_calloc(1, ck_state_size_n(sc->nfactions));
	if (!s)
		return NULL;	/* (the unit of work reports it) */
	s->actions = hg_action_cache_new(sizeof(hg_action));
	s->data = g;
	s->sc = sc;
	s->map = &g->maps[sc->map];
	s->nsides = sc->nfactions;
	for (int a = 0; a < CK_MAX_AREAS; a++)
		s->owner[a] = -1;
	/* each faction's deployment areas on the map, lowest first: the
	 * bits of its mask, not a test of every area */
	int nareas = s->map->nareas;
	uint64_t on_map = nareas >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << nareas) - 1;
	for (int f = 0; f < sc->nfactions; f++)
		for (uint64_t m = sc->factions[f].deploy & on_map; m; m &= m - 1)
			ck_set_owner(s, __builtin_ctzll(m), f);
	s->turn = 1;
	s->phase = CK_PHASE_DRAW;
	s->cursor = 0;
	s->seeded = seed != NULL;
	if (seed) {
		seed_dice(&s->dice, seed);
		seed_stream(&s->random, seed, "random", -1);
		for (int r = 0; r < CK_NRELIGIONS; r++)
			for (int t = 1; t <= sc->turns; t++)
				seed_stream(&s->shuffle[r][t], seed, g->decks[r].id, t);
	}
	for (int r = 0; r < CK_NRELIGIONS; r++) {
		ck_pile *p = &s->pile[r];
		int removed[CK_MAX_CARDS];
		for (int c = 0; c < CK_MAX_CARDS; c++)
			removed[c] = sc->removed[r][c];
		p->n = hg_ck_deck_lay_out(&g->decks[r], removed, p->order);
		p->exact = s->seeded;
		if (s->seeded)
			hg_prng_shuffle(&s->shuffle[r][1], p->order, (size_t)p->n, 1);
	}
	return s;
}

static void seat_list(const ck_scenario *sc, hg_buf *b)
{
	for (int i = 0; i < sc->nfactions; i++)
		hg_buf_printf(b, "%s%s", i ? ", " : "", sc->factions[i].id);
}

static const ck_scenario *choose_scenario(const hg_gdata *g, const hg_game_record *rec,
					  size_t players, hg_diags *d)
{
	const hg_tag *tag = hg_record_tag(rec, "Scenario");
	if (tag) {
		int i = hg_names_find(g->scenario_names, tag->value);
		if (i >= 0)
			return &g->scenarios[i];
		hg_diag *dg = hg_diag_add(d, HG_ERROR, tag->pos, "ck.scenario",
					  "unknown scenario '%s' (rule 7)", tag->value);
		hg_buf b;
		hg_buf_init(&b);
		for (int k = 0; k < g->nscenarios; k++)
			hg_buf_printf(&b, hg_ngettext("%s%s (%d player)", "%s%s (%d players)",
						      (unsigned long)g->scenarios[k].players),
				      k ? ", " : "", g->scenarios[k].id, g->scenarios[k].players);
		hg_diag_note(dg, "the scenarios are %s", b.data);
		hg_buf_free(&b);
		return NULL;
	}
	/* No Scenario tag: the one scenario for that many players. */
	for (int k = 0; k < g->nscenarios; k++)
		if ((size_t)g->scenarios[k].players == players)
			return &g->scenarios[k];
	const hg_tag *pt = hg_record_tag(rec, "Players");
	hg_diag *dg = hg_diag_add(d, HG_ERROR, pt ? pt->pos : rec->pos, "ck.players",
				  "no scenario is for %zu players, and the record names none (rule 7)",
				  players);
	hg_diag_note(dg, "add a tag such as [Scenario \"2nd-crusade\"] (4 players) or [Scenario \"saladin\"] (3 players)");
	return NULL;
}

/* Ruling 36: 8.5 sets "la diferencia entre su Bonus de carta y el de los
 * musulmanes" against the points; herald reads "su" as the crusaders'
 * markers together ("together", the default), the tag BonusDifference
 * "each" as each crusader's own, so that the Muslims' marker counts once
 * per crusader. */
static int bonus_difference(const hg_game_record *rec, const ck_scenario *sc, int *each,
			    hg_diags *d)
{
	const hg_tag *t = hg_record_tag(rec, "BonusDifference");
	*each = 0;
	if (!t)
		return 0;
	if (sc->nlevels == 0) {
		hg_diag_add(d, HG_ERROR, t->pos, "ck.bonus-difference",
			    "scenario '%s' ends by castles, not by victory points: the tag BonusDifference has no use (rule 8.5; ruling 36)",
			    sc->id);
		return -1;
	}
	if (hg_name_eq(t->value, "each")) {
		*each = 1;
		return 0;
	}
	if (hg_name_eq(t->value, "together"))
		return 0;
	hg_diag *dg = hg_diag_add(d, HG_ERROR, t->pos, "ck.bonus-difference",
				  "BonusDifference is \"together\" or \"each\", not \"%s\" (rule 8.5; ruling 36)",
				  t->value);
	hg_diag_note(dg, "\"together\": the crusaders' markers together against the Muslims'; \"each\": each crusader's against the Muslims'");
	return -1;
}

static hg_state *ck_setup(const hg_gdata *g, const hg_game_record *rec, hg_diags *d)
{
	size_t n = hg_record_nplayers(rec);
	const ck_scenario *sc = choose_scenario(g, rec, n, d);
	if (!sc)
		return NULL;
	if (n != (size_t)sc->players) {
		const hg_tag *pt = hg_record_tag(rec, "Players");
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pt ? pt->pos : rec->pos, "ck.players",
					  "scenario '%s' is for %d players; the record names %zu (rule 7.1)",
					  sc->id, sc->players, n);
		hg_buf b;
		hg_buf_init(&b);
		seat_list(sc, &b);
		hg_diag_note(dg, "the seats, in the deployment table's order: %s", b.data);
		hg_buf_free(&b);
		return NULL;
	}
	int each = 0;
	if (bonus_difference(rec, sc, &each, d) != 0)
		return NULL;
	char *seed = hg_record_chance_seed(rec);
	hg_state *st = hg_ck_state_new(g, sc, seed);
	free(seed);
	if (st)
		st->bonus_each = each;
	return st;
}

hg_state *ck_state_copy(const hg_state *s)
{
	size_t n = ck_state_size(s);
	hg_state *c = hg_xmalloc(n);
	memcpy(c, s, n);
	return c;
}

/* NULL short of memory (the unit of work reports it). */
hg_state *ck_state_try_copy(const hg_state *s)
{
	size_t n = ck_state_size(s);
	hg_state *c = hg_try_malloc(n);
	if (c)
		memcpy(c, s, n);
	return c;
}

static hg_state *ck_clone(const hg_state *s)
{
	hg_state *c = ck_state_try_copy(s);
	if (c)
		hg_action_cache_ref(c->actions);
	return c;
}

static void ck_free_state(hg_state *s)
{
	if (s)
		hg_action_cache_unref(s->actions);
	free(s);
}

static const char *const kind_words[] = {
	"draw", "pass", "discard", "incursion", "play", "attack", "reveal"
};

/* Rule 8.3: a side no player controls draws and reveals, nothing else;
 * only such a side reveals. */
static int check_scripted(const hg_state *s, const hg_action *a, hg_diags *d)
{
	const ck_faction *f = &s->sc->factions[a->seat];
	if (!f->player && a->kind != CK_ACT_DRAW && a->kind != CK_ACT_REVEAL) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "ck.script-action",
					  "%s is no player's side: it plays by the script, revealing its next card, and does not '%s' (rule 8.3)",
					  f->id, kind_words[a->kind]);
		hg_diag_note(dg, "its round is written '%s: reveal CARD ...'", f->id);
		return -1;
	}
	if (f->player && a->kind == CK_ACT_REVEAL) {
		hg_diag_add(d, HG_ERROR, a->pos, "ck.script-action",
			    "only a side no player controls reveals its cards one by one; %s plays its cards (rule 8.3)",
			    f->id);
		return -1;
	}
	return 0;
}

/* Rule 3: whose action it is, and which actions the moment allows. */
static int check_turn_order(const hg_state *s, const hg_action *a, hg_diags *d)
{
	const char *seat = s->sc->factions[a->seat].id;
	int expect = ck_seat_to_act(s);
	if (s->phase == CK_PHASE_OVER) {
		hg_diag_add(d, HG_ERROR, a->seat_pos, "ck.game-over",
			    "the game is over (rule 7.3)");
		return -1;
	}
	if (s->phase == CK_PHASE_DRAW) {
		if (a->kind != CK_ACT_DRAW) {
			hg_diag_add(d, HG_ERROR, a->pos, "ck.draw-expected",
				    "turn %d begins with every player's draw, and %s has not drawn: '%s' must wait (rule 3, step 1)",
				    s->turn, s->sc->factions[expect].id, kind_words[a->kind]);
			return -1;
		}
		if (a->seat != expect) {
			hg_diag_add(d, HG_ERROR, a->seat_pos, "ck.not-your-round",
				    "it is %s's turn to draw, not %s's (rule 3, step 1: the deployment table's order)",
				    s->sc->factions[expect].id, seat);
			return -1;
		}
		return 0;
	}
	if (a->kind == CK_ACT_DRAW) {
		hg_diag_add(d, HG_ERROR, a->pos, "ck.draw-unexpected",
			    "cards are drawn only at the start of a turn (rule 3, step 1)");
		return -1;
	}
	if (a->seat != expect && s->sc->final_pass && s->sc->factions[a->seat].player &&
	    ((s->passed >> a->seat) & 1)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->seat_pos, "ck.passed",
					  "%s passed this turn and plays no more until the next (rule 8.2)",
					  seat);
		hg_diag_note(dg, "it is %s's round", s->sc->factions[expect].id);
		return -1;
	}
	if (a->seat != expect) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->seat_pos, "ck.not-your-round",
					  "it is %s's round, not %s's (rule 3, steps 3 and 4)",
					  s->sc->factions[expect].id, seat);
		if (s->sc->scripted)
			hg_diag_note(dg, "a round of the side no player controls follows each crusader's round while it holds cards; a crusader who passed plays no more this turn (rules 8.2, 8.3)");
		else
			hg_diag_note(dg, "rounds follow the deployment table's order, one action each");
		return -1;
	}
	if (a->kind != CK_ACT_PASS && s->p[a->seat].hand.size == 0) {
		hg_diag_add(d, HG_ERROR, a->pos, "ck.no-cards",
			    "%s has no cards and can only pass (rule 4.6)", seat);
		return -1;
	}
	return 0;
}

static int ck_apply(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (check_turn_order(s, a, d) != 0 || check_scripted(s, a, d) != 0)
		return -1;
	/* In place: an illegal action spoils the state (hg_game_class.apply);
	 * a copy per action would cost more than the whole check. */
	switch (a->kind) {
	case CK_ACT_DRAW: return ck_apply_draw(s, a, d);
	case CK_ACT_PASS: return ck_apply_pass(s, a, d);
	case CK_ACT_DISCARD: return ck_apply_discard(s, a, d);
	case CK_ACT_INCURSION: return ck_apply_incursion(s, a, d);
	case CK_ACT_PLAY: return ck_apply_play(s, a, d);
	case CK_ACT_ATTACK: return ck_apply_attack(s, a, d);
	case CK_ACT_REVEAL: return ck_apply_reveal(s, a, d);
	}
	return -1;
}

static const char *ck_result(const hg_state *s)
{
	return s->phase == CK_PHASE_OVER ? s->result : NULL;
}

static unsigned ck_turn(const hg_state *s)
{
	return (unsigned)s->turn;
}

static const char *ck_to_move(const hg_state *s)
{
	int f = ck_seat_to_act(s);
	return f < 0 ? NULL : s->sc->factions[f].id;
}

/* herald gen: the scenario the variant or the player count names, else
 * one of the scenarios drawn at random.  Players are "Player 1" ... in seat
 * order; the Seed is drawn from r. */
static int ck_gen_tags(const hg_gdata *g, hg_prng *r, unsigned players, const char *variant,
		       hg_game_record *rec, hg_diags *d)
{
	const ck_scenario *sc = NULL;
	hg_pos none = { NULL, 0, 0 };
	if (variant) {
		int i = hg_names_find(g->scenario_names, variant);
		if (i < 0) {
			hg_diag_add(d, HG_ERROR, none, "ck.scenario",
				    "unknown scenario '%s' (the variants are the scenarios)", variant);
			return -1;
		}
		sc = &g->scenarios[i];
		if (players && (unsigned)sc->players != players) {
			hg_diag_add(d, HG_ERROR, none, "ck.players",
				    "scenario '%s' is for %d players, not %u", sc->id, sc->players,
				    players);
			return -1;
		}
	} else {
		int cand[64], n = 0;
		for (int i = 0; i < g->nscenarios; i++) {
			const ck_scenario *x = &g->scenarios[i];
			if (players ? (unsigned)x->players == players : 1)
				cand[n++] = i;
		}
		if (n == 0) {
			hg_diag_add(d, HG_ERROR, none, "ck.players",
				    "no scenario is for %u players", players);
			return -1;
		}
		sc = &g->scenarios[cand[hg_prng_below(r, (uint32_t)n)]];
	}
	/* (short of memory in a unit of work, a tag left out fails the call:
	 * the caller drops the record) */
	hg_buf b;
	hg_buf_init(&b);
	for (int i = 0; i < sc->players; i++)
		hg_buf_printf(&b, "%sPlayer %d", i ? "; " : "", i + 1);
	int rc = hg_record_try_set_tag(rec, "Scenario", sc->id);
	rc |= hg_record_try_set_tag(rec, "Players", b.data ? b.data : "");
	if (!hg_record_tag(rec, "Date"))
		rc |= hg_record_try_set_tag(rec, "Date", "????.??.??");
	hg_buf_clear(&b);
	hg_buf_printf(&b, "%08x%08x", (unsigned)hg_prng_u32(r), (unsigned)hg_prng_u32(r));
	rc |= hg_record_try_set_tag(rec, "Seed", b.data ? b.data : "");
	hg_buf_free(&b);
	return rc ? -1 : 0;
}

static const char *const aliases[] = { "ck", "crusaderkingdoms", "crusader_kingdoms", NULL };
static const char *const variants[] = {
	"2nd-crusade: La 2ª Cruzada, 4 players: Damasco, Jerusalén, Antioquía, Alepo (7.1)",
	"saladin: La era de Saladino, 3 players: Saladino, Jerusalén, Antioquía (7.1, 7.2)",
	"3rd-crusade: La 3ª Cruzada, 2 players, cooperative: Ricardo, Leopoldo against the scripted Muslims (8)",
	"1st-crusade: La 1ª Cruzada, 1 player, solitaire: the Crusade against the scripted Muslims (8)",
	NULL
};
static const char *const data_files[] = {
	"crusader-kingdoms/scenarios.yaml", "crusader-kingdoms/map-saladino.yaml",
	"crusader-kingdoms/map-cruzadas.yaml", "crusader-kingdoms/deck-muslim.yaml",
	"crusader-kingdoms/deck-christian.yaml", NULL
};

const hg_game_class hg_ck_class = {
	.id = "crusader-kingdoms",
	.title = "Crusader Kingdoms",
	.aliases = aliases,
	.variants = variants,
	.data_files = data_files,
	.data_tags = ck_data_tags,
	.min_seats = 1,		/* the scenarios of rules 7 and 8: 1 to 4 players */
	.max_seats = 4,
	.load = ck_load,
	.unload = hg_ck_unload,
	.setup = ck_setup,
	.clone = ck_clone,
	.free_state = ck_free_state,
	.parse = ck_parse,
	.format = ck_format,
	.apply = ck_apply,
	.free_action = ck_free_action,
	.legal = ck_legal,
	.result = ck_result,
	.turn = ck_turn,
	.to_move = ck_to_move,
	.render = ck_render,
	.gen_tags = ck_gen_tags,
	.chance_split = hg_ck_chance_split,
	.resign_result = hg_ck_resign_result,
	.pending_open = ck_pending_open,
	.pending_answer = ck_pending_answer,
	.pending_finish = ck_pending_finish,
	.pending_steps = ck_pending_steps,
	.seat_find = ck_seat_find,
	.seat_name = ck_view_seat_name,
	.view_action = ck_view_action,
	.names_chance = ck_names_chance,
	.position_json = hg_ck_position_json,
	.facts = ck_facts,
	.fact = ck_fact,
	.reports_enomem = HG_REPORTS_ALL,
};
