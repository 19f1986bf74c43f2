/* setup.c - 'Preparation for a game' from the record's tags: the seats,
 * the variant, the order of the deck (Seed or DeckOrder), and who plays
 * first by lot (First).  Also the tags of a random game (herald gen). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "koc.h"

static const char *const seat_names[KOC_MAX_PLAYERS] = { "P1", "P2", "P3", "P4" };

const char *hg_koc_seat_name(unsigned seat)
{
	return seat < KOC_MAX_PLAYERS ? seat_names[seat] : "?";
}

static hg_pos tag_pos(const hg_game_record *rec, const char *name)
{
	const hg_tag *t = hg_record_tag(rec, name);
	return t ? t->pos : rec->pos;
}

void hg_koc_free_state(hg_state *s)
{
	if (!s)
		return;
	hg_action_cache_unref(s->actions);
	for (unsigned i = 0; i < KOC_MAX_PLAYERS; i++)
		free(s->names[i]);
	free(s->order);
	free(s->loc);
	free(s->result);
	free(s);
}

/* A copy of `src` (n bytes), or NULL: src NULL, or no memory. */
static void *copy_of(const void *src, size_t n)
{
	void *p = src ? hg_try_malloc(n) : NULL;
	if (p)
		memcpy(p, src, n);
	return p;
}

hg_state *hg_koc_clone(const hg_state *s)
{
	hg_state *c = hg_try_malloc(sizeof *c);
	if (!c)
		return NULL;	/* (the unit of work reports it) */
	*c = *s;
	hg_action_cache_ref(c->actions);
	memset(c->names, 0, sizeof c->names);	/* each its own copy, below */
	c->order = NULL;
	c->loc = NULL;
	c->result = NULL;
	size_t n = s->cards->n;
	int short_of_memory = 0;
	for (unsigned i = 0; i < KOC_MAX_PLAYERS; i++)
		short_of_memory |= s->names[i] && !(c->names[i] = copy_of(s->names[i],
									  strlen(s->names[i]) + 1));
	short_of_memory |= s->order && !(c->order = copy_of(s->order, n * sizeof *c->order));
	short_of_memory |= !(c->loc = copy_of(s->loc, n));
	short_of_memory |= s->result && !(c->result = copy_of(s->result, strlen(s->result) + 1));
	if (short_of_memory) {
		hg_koc_free_state(c);
		return NULL;
	}
	return c;
}

/* 'Preparation for a game': two players use one deck, three or four two
 * decks mixed; the players' names become aliases of their seats. */
static int setup_players(hg_state *s, const hg_game_record *rec, hg_diags *d)
{
	char **names;
	size_t n = hg_record_players(rec, &names);
	const hg_tag *players = hg_record_tag(rec, "Players");
	hg_pos pos = players ? players->pos : tag_pos(rec, "Seat1");
	if (n < KOC_MIN_PLAYERS || n > KOC_MAX_PLAYERS) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "koc.players",
					  "The Kingdoms of Crusaders is played by 2 to 4 players, not %zu "
					  "(rule 'Preparation for a game')", n);
		hg_diag_note(dg, "name the players in seat order: [Players \"Ana; Ben\"]");
		hg_strv_free(names, n);
		return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		/* A name that is another seat's name, or another player's, would
		 * make the seat of an action ambiguous. */
		for (size_t k = 0; k < n; k++) {
			if (k == i)
				continue;
			if (hg_name_eq(names[i], seat_names[k]) ||
			    (k < i && names[i][0] && hg_name_eq(names[i], names[k]))) {
				hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "koc.players",
							  "the player name '%s' is ambiguous", names[i]);
				hg_diag_note(dg, "a player's name stands for their seat (%s) and must "
					     "differ from the other seats' names", seat_names[i]);
				rc = -1;
				break;
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		s->names[i] = names[i];
		names[i] = NULL;
	}
	s->nplayers = (unsigned)n;
	hg_strv_free(names, n);
	return rc;
}

static int setup_variant(hg_state *s, const hg_game_record *rec, hg_diags *d)
{
	const char *v = hg_record_tag_value(rec, "Variant");
	if (!v || hg_name_eq(v, "markers")) {
		s->points = 0;
		return 0;
	}
	if (hg_name_eq(v, "points")) {
		s->points = 1;
		return 0;
	}
	hg_diag *dg = hg_diag_add(d, HG_ERROR, tag_pos(rec, "Variant"), "koc.variant",
				  "unknown variant '%s' (rule 'Winner by the points')", v);
	hg_diag_note(dg, "the variants are 'markers' (the default: most victory markers wins) "
		     "and 'points' ('Winner by the points')");
	return -1;
}

/* Ruling 8's two readings of "the players whose numbers on the victory
 * markers are greater will lose": MarkerTie "highest" (the default) or
 * "sum". */
static int setup_marker_tie(hg_state *s, const hg_game_record *rec, hg_diags *d)
{
	const char *v = hg_record_tag_value(rec, "MarkerTie");
	s->tie_by_sum = 0;
	if (!v || hg_name_eq(v, "highest"))
		return 0;
	if (hg_name_eq(v, "sum")) {
		s->tie_by_sum = 1;
		return 0;
	}
	hg_diag *dg = hg_diag_add(d, HG_ERROR, tag_pos(rec, "MarkerTie"), "koc.variant",
				  "unknown MarkerTie '%s' (rule 'End of a game and a Winner', "
				  "ruling 8)", v);
	hg_diag_note(dg, "MarkerTie is 'highest' (the default: the highest marker numbers are "
		     "compared first) or 'sum' (the sums of the marker numbers)");
	return -1;
}

/* A seat by its name ("P2") or its player's name. */
static int seat_by_name(const hg_state *s, const char *name)
{
	for (unsigned i = 0; i < s->nplayers; i++)
		if (hg_name_eq(name, seat_names[i]))
			return (int)i;
	for (unsigned i = 0; i < s->nplayers; i++)
		if (s->names[i] && s->names[i][0] && hg_name_eq(name, s->names[i]))
			return (int)i;
	return -1;
}

/* DeckOrder: every card in play once, top of the deck first. */
static int order_from_tag(hg_state *s, const hg_tag *tag, hg_diags *d)
{
	const hg_koc_cards *cards = s->cards;
	size_t n = cards->n, got = 0;
	unsigned char *seen = hg_try_calloc(n, 1);
	if (!seen)
		return -1;	/* (the unit of work reports it) */
	int rc = 0;
	const char *p = tag->value;
	while (*p) {
		size_t skip = strspn(p, " \t,;");
		p += skip;
		if (!*p)
			break;
		size_t len = strcspn(p, " \t,;");
		char *word = hg_try_strndup(p, len);
		if (!word) {
			rc = -1;
			break;
		}
		p += len;
		int c = hg_names_find(cards->names, word);
		if (c < 0) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, tag->pos, "koc.unknown-card",
						  "DeckOrder names the unknown card '%s'", word);
			hg_diag_note(dg, "the deck in play holds %s ... %s", cards->ids[0],
				     cards->ids[n - 1]);
			rc = -1;
		} else if (seen[c]) {
			hg_diag_add(d, HG_ERROR, tag->pos, "koc.deck-order",
				    "DeckOrder lists '%s' twice (ruling 2)", cards->ids[c]);
			rc = -1;
		} else if (got < n) {
			seen[c] = 1;
			s->order[got++] = (uint16_t)c;
		}
		free(word);
	}
	if (rc == 0 && got != n) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, tag->pos, "koc.deck-order",
					  "DeckOrder lists %zu of the %zu cards in play (ruling 2)", got, n);
		hg_buf miss;
		hg_buf_init(&miss);
		size_t shown = 0;
		for (size_t i = 0; i < n; i++)
			if (!seen[i] && shown++ < 8)
				hg_buf_printf(&miss, "%s%s", shown > 1 ? ", " : "", cards->ids[i]);
		hg_diag_note(dg, "missing: %s%s", miss.data, n - got > 8 ? ", ..." : "");
		hg_diag_note(dg, "DeckOrder lists the whole deck, top card first");
		hg_buf_free(&miss);
		rc = -1;
	}
	free(seen);
	return rc;
}

/* Ruling 2: the Seed orders the deck.  The cards in play, in the deck file's
 * order (with two decks: every 'a' card, then every 'b' card), are shuffled
 * with hg_prng seeded by the Seed tag's value; index 0 is the top. */
static void order_from_seed(hg_state *s, const char *seed)
{
	for (size_t i = 0; i < s->cards->n; i++)
		s->order[i] = (uint16_t)i;
	hg_prng r;
	hg_prng_seed(&r, seed);
	hg_prng_shuffle(&r, s->order, s->cards->n, sizeof *s->order);
}

/* Ruling 2: the lot for the first player, from the stream "<seed>/first". */
static unsigned first_from_seed(const char *seed, unsigned players)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_puts(&b, seed);
	hg_buf_puts(&b, "/first");
	hg_prng r;
	hg_prng_seed(&r, b.data ? b.data : "");	/* ("": no memory, reported) */
	hg_buf_free(&b);
	return hg_prng_below(&r, players);
}

static int setup_order(hg_state *s, const hg_game_record *rec, hg_diags *d)
{
	const hg_tag *seed = hg_record_chance_tag(rec);
	const hg_tag *order = hg_record_tag(rec, "DeckOrder");
	if (seed && order) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, order->pos, "koc.deck-order",
					  "both Seed and DeckOrder give the order of the deck (ruling 2)");
		hg_diag_note(dg, "%s:%u:%u: the Seed tag is here", seed->pos.file,
			     seed->pos.line, seed->pos.col);
		return -1;
	}
	if (!seed && !order)
		return 0;
	s->order_known = 1;
	s->order = hg_try_malloc(s->cards->n * sizeof *s->order);
	if (!s->order)
		return -1;	/* (the unit of work reports it) */
	if (order)
		return order_from_tag(s, order, d);
	char *value = hg_record_chance_seed(rec);
	if (value)
		order_from_seed(s, value);
	free(value);
	return 0;
}

static int setup_first_from(hg_state *s, const hg_game_record *rec, const char *seed,
			    hg_diags *d)
{
	const hg_tag *first = hg_record_tag(rec, "First");
	if (first) {
		int seat = seat_by_name(s, first->value);
		if (seat < 0) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, first->pos, "koc.first-player",
						  "First names '%s', who is not a player", first->value);
			hg_diag_note(dg, "First names a seat (P1 ... P%u) or a player", s->nplayers);
			return -1;
		}
		if (seed) {
			unsigned lot = first_from_seed(seed, s->nplayers);
			if ((unsigned)seat != lot) {
				hg_diag *dg = hg_diag_add(d, HG_ERROR, first->pos, "koc.first-player",
							  "First says %s plays first, but the lot drawn from "
							  "the Seed gives %s (rule 'Turn sequence', ruling 2)",
							  seat_names[seat], seat_names[lot]);
				hg_diag_note(dg, "with a Seed, the lot is the stream \"<Seed>/first\": "
					     "seat 1 + below(number of players)");
				return -1;
			}
		}
		s->first = (unsigned)seat;
		s->first_known = 1;
		return 0;
	}
	if (seed) {
		s->first = first_from_seed(seed, s->nplayers);
		s->first_known = 1;
		return 0;
	}
	/* Neither First nor Seed: the record shows the lot by who is dealt
	 * first (ruling 2). */
	s->first_known = 0;
	return 0;
}

/* The lot follows from the record's chance seed (hg_record_chance_seed:
 * the Seed tag, or a revealed committed seed). */
static int setup_first(hg_state *s, const hg_game_record *rec, hg_diags *d)
{
	char *seed = hg_record_chance_seed(rec);
	int rc = setup_first_from(s, rec, seed, d);
	free(seed);
	return rc;
}

/* Ruling 3: every player must be able to fill all five sectors. */
static int setup_deck_size(hg_state *s, const hg_game_record *rec, hg_diags *d)
{
	size_t need = (size_t)KOC_PER_PLAYER * s->nplayers;
	if (s->cards->n >= need)
		return 0;
	const hg_tag *tag = hg_record_tag(rec, "DeckFile");
	hg_diag *dg = hg_diag_add(d, HG_ERROR, tag ? tag->pos : rec->pos, "koc.deck-too-small",
				  "%u players need at least %zu cards in play, the deck gives %zu "
				  "(ruling 3)", s->nplayers, need, s->cards->n);
	hg_diag_note(dg, "each player can play 20 cards ('Turn sequence'), and the game "
		     "must be able to fill every sector");
	return -1;
}

hg_state *hg_koc_setup(const hg_gdata *data, const hg_game_record *rec, hg_diags *d)
{
	hg_state *s = hg_try_calloc(1, sizeof *s);
	if (!s)
		return NULL;	/* (the unit of work reports it) */
	s->data = data;
	s->actions = hg_action_cache_new(sizeof(hg_action));
	if (setup_players(s, rec, d) != 0) {
		hg_koc_free_state(s);
		return NULL;
	}
	s->cards = hg_koc_cards_for(data, s->nplayers);
	int rc = setup_variant(s, rec, d);
	rc |= setup_marker_tie(s, rec, d);
	rc |= setup_deck_size(s, rec, d);
	if (rc == 0)
		rc |= setup_order(s, rec, d);
	rc |= setup_first(s, rec, d);
	if (rc == 0)
		s->loc = hg_try_calloc(s->cards->n, 1);
	if (rc != 0 || !s->loc || hg_alloc_lost()) {
		hg_koc_free_state(s);
		return NULL;
	}
	for (size_t i = 0; i < s->cards->n; i++)
		s->pool[s->cards->mask[i]]++;
	for (unsigned k = 0; k < KOC_SECTORS; k++)
		s->winner[k] = s->best[k] = -1;
	/* Every sector starts empty: no kind counted (calloc), and the key of
	 * no cards. */
	hg_koc_key empty = hg_koc_key_of(s->counts[0][0]);
	for (unsigned p = 0; p < KOC_MAX_PLAYERS; p++)
		for (unsigned k = 0; k < KOC_SECTORS; k++)
			s->key[p][k] = empty;
	s->phase = KOC_PHASE_DEAL;
	s->to_move = s->first;
	return s;
}

/* For herald gen: a seeded game, so that every draw is checked. */
int hg_koc_gen_tags(const hg_gdata *data, hg_prng *r, unsigned players,
		    const char *variant, hg_game_record *rec, hg_diags *d)
{
	static const char *const names[KOC_MAX_PLAYERS] = { "Ana", "Ben", "Clara", "Dario" };
	(void)data;
	if (players == 0)
		players = 2;
	if (players < KOC_MIN_PLAYERS || players > KOC_MAX_PLAYERS) {
		hg_diag_add(d, HG_ERROR, rec->pos, "koc.players",
			    "The Kingdoms of Crusaders is played by 2 to 4 players, not %u", players);
		return -1;
	}
	if (variant && !hg_name_eq(variant, "markers") && !hg_name_eq(variant, "points")) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, rec->pos, "koc.variant",
					  "unknown variant '%s'", variant);
		hg_diag_note(dg, "the variants are 'markers' and 'points'");
		return -1;
	}
	/* (short of memory in a unit of work, a tag left out fails the call:
	 * the caller drops the record) */
	hg_buf b;
	hg_buf_init(&b);
	for (unsigned i = 0; i < players; i++)
		hg_buf_printf(&b, "%s%s", i ? "; " : "", names[i]);
	int rc = hg_record_try_set_tag(rec, "Players", b.data ? b.data : "");
	hg_buf_clear(&b);
	unsigned hi = (unsigned)hg_prng_u32(r);
	unsigned lo = (unsigned)hg_prng_u32(r);
	hg_buf_printf(&b, "%08x%08x", hi, lo);
	if (hg_buf_failed(&b)) {
		hg_buf_free(&b);
		return -1;
	}
	rc |= hg_record_try_set_tag(rec, "Seed", b.data);
	rc |= hg_record_try_set_tag(rec, "First", seat_names[first_from_seed(b.data, players)]);
	rc |= hg_record_try_set_tag(rec, "Variant",
				    variant && hg_name_eq(variant, "points") ? "points" : "markers");
	hg_buf_free(&b);
	return rc ? -1 : 0;
}
