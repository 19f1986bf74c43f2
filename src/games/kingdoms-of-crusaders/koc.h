/* koc.h - The Kingdoms of Crusaders: the engine's internal interface.
 *
 * The files of the game:
 *   data.c      the deck file (YAML) and the cards in play (one or two decks)
 *   army.c      squads, the comparison of armies, the "no better army" proof
 *   verdict.c   ruling 6 with hidden cards: is a territory won in every
 *               assignment of the hidden cards, in some, or in none?
 *   notation.c  the action syntax, one table of shapes from which the PCRE2
 *               patterns and the canonical token reader are built: parse
 *               and format
 *   setup.c     the set-up from the tags: seats, variant, deck order, lot
 *   engine.c    the turn sequence, territories, the end, legal actions
 *   render.c    the plain-text picture of a position
 *   view.c      what one seat may see (herald view)
 *   position-json.c  the position as JSON, for the replay's JSON and page
 * Rules are cited by the rule sheet's section titles and by the numbered
 * rulings of herald-kingdoms-of-crusaders(7).
 */
#ifndef HERALD_KOC_H
#define HERALD_KOC_H

#include <stdint.h>

#include "action-cache.h"
#include "internal.h"
#include "pattern.h"

/* The five kinds of symbols, weakest first ('Unit Cards').  A card is the
 * set of its kinds: bit k stands for kind k. */
enum { KOC_LANCE, KOC_BOW, KOC_SWORDS, KOC_HELMET, KOC_BANNER, KOC_NKINDS };
#define KOC_NTYPES 32		/* card types: subsets of the five kinds */
#define KOC_SECTORS 5		/* sectors of a location card */
#define KOC_ARMY 4		/* cards that make an army */
#define KOC_HAND 5		/* cards dealt to each player */
#define KOC_MIN_PLAYERS 2
#define KOC_MAX_PLAYERS 4
#define KOC_MAX_DECK 250	/* cards in one deck file */
#define KOC_PER_PLAYER (KOC_SECTORS * KOC_ARMY)	/* ruling 3: cards in play per player */

extern const char *const hg_koc_kind_names[KOC_NKINDS + 1];

enum hg_koc_verb { KOC_DEAL, KOC_DRAW, KOC_PLACE, KOC_WIN };

/* ------------------------------------------------------------------ data */
typedef struct hg_koc_card {
	char *id;
	unsigned mask;		/* the card's kinds */
	char **aliases;
	size_t naliases;
	hg_pos pos;		/* where the deck file defines it */
} hg_koc_card;

/* A location (sector) by number: its name, when the deck file gives one
 * (where each fact comes from is in hg_gdata.provs), and the word an action
 * writes for it: the name with its spaces written '-' ("county-of-edessa"). */
typedef struct hg_koc_location {
	char *name;
	char *id;
} hg_koc_location;

/* The cards in play: the deck itself (2 players) or two decks mixed (3 and
 * 4 players), each physical card with its own canonical id (ruling 1). */
typedef struct hg_koc_cards {
	size_t n;
	char **ids;
	unsigned char *mask;
	hg_names *names;	/* ids and aliases -> index */
	/* The cards by the number their id carries (the first run of digits,
	 * "c12" and "c12a" carry 12): every action names cards, nearly always
	 * by their ids as the writer spells them, and the number finds such a
	 * card with one comparison.  by_number[v] is the first card carrying
	 * v (-1: none), next_same[c] the next after card c; ids without a
	 * number of at most KOC_MAX_ID_NUMBER are not in it. */
	int *by_number;
	size_t nnumbers;	/* by_number's length: the largest number + 1 */
	int *next_same;
} hg_koc_cards;
#define KOC_MAX_ID_NUMBER 9999

/* The action syntax, built at load from notation.c's one table of action
 * shapes: the verb words, and each verb's PCRE2 pattern with the numbers
 * of its groups (-1: the verb has no such part). */
typedef struct hg_koc_verb_word {
	char word[12];		/* in small letters */
	unsigned char len;
	signed char verb;	/* enum hg_koc_verb */
} hg_koc_verb_word;
#define KOC_NVERBS 4
#define KOC_MAX_VERB_WORDS 24
typedef struct hg_koc_grammar {
	hg_koc_verb_word words[KOC_MAX_VERB_WORDS];
	size_t nwords;
	hg_pattern *pattern[KOC_NVERBS];
	int g_sector[KOC_NVERBS], g_marker[KOC_NVERBS];
} hg_koc_grammar;

struct hg_gdata {
	char *file;		/* the deck file, as loaded */
	unsigned victory_markers;	/* in the box (0: not given) */
	unsigned location_cards;	/* in the box (0: not given) */
	hg_koc_location location[KOC_SECTORS];
	hg_koc_card *deck;	/* the deck file's cards, in file order */
	size_t ndeck;
	hg_koc_cards one, two;	/* one deck; two decks mixed */
	hg_names *location_names;	/* location ids and aliases -> sector - 1 */
	hg_koc_grammar grammar;	/* the action syntax (notation.c) */
	hg_provs provs;		/* where each value of the deck file comes from */
};

/* Reads and validates a deck file held in memory (the loader's core, which
 * the unit tests drive directly).  NULL after diagnostics. */
hg_gdata *hg_koc_deck_parse(const char *name, const char *text, size_t len,
			    hg_diags *d);
hg_gdata *hg_koc_deck_load(const char *path, hg_diags *d);
hg_gdata *hg_koc_load(const hg_load_ctx *ctx, hg_buf *key, hg_diags *d);
void hg_koc_unload(hg_gdata *data);
const hg_koc_cards *hg_koc_cards_for(const hg_gdata *data, unsigned players);
/* The card a word names (an id or an alias, without regard to case or
 * accents, as hg_names_find), or -1.  An id written exactly is found by its
 * number (hg_koc_cards.by_number); any other word through the names. */
int hg_koc_card_find(const hg_koc_cards *cards, const char *word);
/* The number an id carries (its first run of ASCII digits), or -1 when it
 * has none or one above KOC_MAX_ID_NUMBER. */
int hg_koc_id_number(const char *id);

/* The same two, inline for the parser, which looks up every card word:
 * a call from another file is not inlined. */
static inline int koc_id_number(const char *id)
{
	const char *p = id;
	while (*p && !(*p >= '0' && *p <= '9'))
		p++;
	if (!*p)
		return -1;
	int v = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v > KOC_MAX_ID_NUMBER)
			return -1;
	}
	return v;
}

static inline int koc_card_find(const hg_koc_cards *cards, const char *word)
{
	int v = koc_id_number(word);
	if (v >= 0 && (size_t)v < cards->nnumbers)
		for (int c = cards->by_number[v]; c >= 0; c = cards->next_same[c]) {
			/* The id written exactly (ids are a few bytes: a loop
			 * here costs less than a call of strcmp). */
			const char *id = cards->ids[c], *w = word;
			while (*id && *id == *w)
				id++, w++;
			if (*id == *w)
				return c;
		}
	return hg_names_find(cards->names, word);
}
/* "c12 [lance bow]" */
void hg_koc_card_describe(const hg_koc_cards *cards, unsigned card, hg_buf *out);
void hg_koc_mask_describe(unsigned mask, hg_buf *out);

/* ------------------------------------------------------------------ army */
/* An army's strength as one integer: the larger key is the better army,
 * ties being broken by who completed first (ruling 5).  From the most
 * significant bits down: the number of regiments, their kinds (bit k for
 * kind k), then the same for battalions and for companies, then the kinds
 * that appear exactly once. */
typedef uint32_t hg_koc_key;

/* How many of the cards show each kind. */
void hg_koc_count(const unsigned char *masks, size_t n, unsigned char counts[KOC_NKINDS]);
hg_koc_key hg_koc_key_of(const unsigned char counts[KOC_NKINDS]);
hg_koc_key hg_koc_army_key(const unsigned char *masks, size_t n);
/* The kinds forming squads of `size` symbols (2 company, 3 battalion,
 * 4 regiment; 1 the single symbols) in a key. */
unsigned hg_koc_key_kinds(hg_koc_key k, unsigned size);
/* Compares two complete armies: > 0 when a is better.  `first_a` and
 * `first_b` say when each army's fourth card was placed (smaller: earlier). */
int hg_koc_army_cmp(hg_koc_key a, unsigned first_a, hg_koc_key b, unsigned first_b);
/* The level of the comparison that separates two keys: 0 equal, 1 the
 * number of regiments, 2 their kinds, 3 number of battalions, 4 their
 * kinds, 5 number of companies, 6 their kinds, 7 the single symbols. */
int hg_koc_key_level(hg_koc_key a, hg_koc_key b);
/* "regiment lance; battalions bow, swords; single banner" ("no squads"...). */
void hg_koc_key_describe(hg_koc_key k, hg_buf *out);

/* The proof of 'Armies and domination' (last paragraph, ruling 6): can a
 * player holding `counts` in a sector, with `need` more cards to place
 * there, end with an army whose key exceeds `target`, drawing those cards
 * from `pool` (how many unplaced cards there are of each type)?  Exact:
 * a pruned enumeration of the multisets of `need` cards. */
int hg_koc_can_beat(const unsigned char counts[KOC_NKINDS], unsigned need,
		    const uint16_t pool[KOC_NTYPES], hg_koc_key target);
/* A better army that can still be gathered, as proof: take[i] cards of
 * type[i] from the pool, for i < ntypes (at most KOC_ARMY cards, so at
 * most KOC_ARMY types). */
typedef struct hg_koc_proof {
	unsigned ntypes;
	unsigned char type[KOC_ARMY], take[KOC_ARMY];
} hg_koc_proof;

/* The same; on success, when proof is not NULL, it receives the cards one
 * better army takes from the pool (a proof that stays good while the pool
 * still holds them).  `need` is at most KOC_ARMY. */
int hg_koc_can_beat_with(const unsigned char counts[KOC_NKINDS], unsigned need,
			 const uint16_t pool[KOC_NTYPES], hg_koc_key target,
			 hg_koc_proof *proof);

/* The last proof that a player could still beat a sector's best complete
 * army (verdict.c): reused while the inputs are the same and the pool still
 * holds the cards it takes, which saves the search at most placements. */
typedef struct hg_koc_beat_memo {
	int valid;
	unsigned char counts[KOC_NKINDS];
	unsigned need;
	hg_koc_key target;
	hg_koc_proof proof;
} hg_koc_beat_memo;

/* ------------------------------------------------------------------ verdict */
/* Ruling 6 with hidden cards: a territory is won in every assignment of the
 * hidden cards to the hidden hands, in some of them only, or in none. */
enum hg_koc_verdict { KOC_WON_NONE, KOC_WON_SOME, KOC_WON_EVERY };
/* The assignments enumerated before herald assumes "some" (ruling 10). */
#define KOC_VERDICT_BUDGET 4096
/* The verdict on territory `sector` (0-based) now; *assumed is set when the
 * answer "some" was assumed because the assignments were too many to
 * enumerate.  Keeps proofs in s->beat_memo for the next call. */
int hg_koc_territory_verdict(hg_state *s, unsigned sector, int *assumed);
/* Could seat q, whose army in the sector is incomplete, still end with an
 * army above `target` in some assignment of the hidden cards, from the cards
 * it could still hold (its hand, the deck, cards whose place is unknown)? */
int hg_koc_could_beat(const hg_state *s, unsigned q, unsigned sector,
		      hg_koc_key target);

/* ------------------------------------------------------------------ notation */
#define KOC_HIDDEN (-1)		/* a card written '?' */

struct hg_action {
	int verb;
	unsigned seat;
	hg_pos pos;		/* of the action (its seat) */
	unsigned ncards;
	int card[KOC_HAND];	/* card indexes, or KOC_HIDDEN */
	hg_pos card_pos[KOC_HAND];
	unsigned sector;	/* 1..5: place, win */
	hg_pos sector_pos;
	unsigned marker;	/* win */
	hg_pos marker_pos;
	/* hg_koc_parse's actions: the spare-action cache of the game they
	 * were parsed in, which they hold a reference to and go back to when
	 * freed (action-cache.h); NULL for hg_koc_legal's. */
	hg_action_cache *home;
};

/* ------------------------------------------------------------------ state */
/* Where a card is.  Unseen cards are in the deck or hidden in a hand. */
enum { KOC_UNSEEN = 0, KOC_TABLE = 1, KOC_IN_HAND = 2 /* + seat */ };

enum hg_koc_phase { KOC_PHASE_DEAL, KOC_PHASE_DRAW, KOC_PHASE_PLACE, KOC_PHASE_OVER };

typedef struct hg_koc_claim {
	unsigned sector;	/* 0-based */
	unsigned seat;
	unsigned marker;
} hg_koc_claim;

struct hg_state {
	const hg_gdata *data;
	hg_action_cache *actions;	/* parse's blocks; shared with the clones */
	const hg_koc_cards *cards;
	unsigned nplayers;
	unsigned first;			/* seat that plays first, by lot */
	int first_known;		/* 0: the first deal will say (ruling 2) */
	int points;			/* the points variant */
	int tie_by_sum;			/* MarkerTie "sum" (ruling 8) */
	char *names[KOC_MAX_PLAYERS];	/* players' names from the tags */

	int order_known;		/* Seed or DeckOrder gives the order */
	uint16_t *order;		/* the deck, top first (when known) */
	size_t dealt;			/* cards that left the deck so far */
	unsigned char *loc;		/* per card: KOC_UNSEEN, KOC_TABLE, KOC_IN_HAND + seat */
	unsigned hand[KOC_MAX_PLAYERS];	/* cards held, known or not */
	unsigned hidden[KOC_MAX_PLAYERS];	/* of which not known to the record */
	uint16_t pool[KOC_NTYPES];	/* cards not on the table, by type */

	uint16_t sector[KOC_MAX_PLAYERS][KOC_SECTORS][KOC_ARMY];
	unsigned char nsector[KOC_MAX_PLAYERS][KOC_SECTORS];
	unsigned completed[KOC_MAX_PLAYERS][KOC_SECTORS];	/* placement that completed it */
	/* Kept up as cards are placed (add_to_sector): how many of a sector's
	 * cards show each kind, and the key of the army they make. */
	unsigned char counts[KOC_MAX_PLAYERS][KOC_SECTORS][KOC_NKINDS];
	hg_koc_key key[KOC_MAX_PLAYERS][KOC_SECTORS];
	int best[KOC_SECTORS];		/* seat of the best complete army, or -1 */
	/* The sectors a placement may decide: a complete army there and no
	 * winner yet (bit k: sector k), so that most placements, made
	 * before any army is complete, look at none. */
	unsigned decidable;

	hg_koc_beat_memo beat_memo[KOC_MAX_PLAYERS][KOC_SECTORS];

	int winner[KOC_SECTORS];	/* seat, or -1 */
	unsigned marker[KOC_SECTORS];	/* its victory marker number */
	unsigned markers;		/* markers placed */
	hg_koc_claim pending[KOC_SECTORS];	/* won, not yet written */
	unsigned npending;
	hg_pos won_at;			/* the placement that won them */
	int won_card;
	unsigned won_seat, won_sector;

	/* Cards each hand is known to hold, by type: a card in another
	 * player's hand can never reach a challenger (ruling 6). */
	uint16_t held[KOC_MAX_PLAYERS][KOC_NTYPES];
	/* The territories the last placement decided or may have decided
	 * (ruling 7's order): those won in every assignment of the hidden
	 * cards must be claimed; those won in only some may be (unverified).
	 * Kept until the next action that is not a claim. */
	struct {
		unsigned sector;
		unsigned seat;
		int certain;	/* won in every assignment */
		int claimed;	/* its claim is written */
		int assumed;	/* "some": too many assignments to enumerate */
	} decided[KOC_SECTORS];
	unsigned ndecided;
	unsigned claim_base;		/* markers placed before those claims */

	int phase;
	unsigned to_move;		/* seat to deal, draw or place */
	unsigned deals;			/* hands dealt */
	unsigned turns;			/* turns completed */
	unsigned placements;		/* cards placed so far */
	char *result;
};

const char *hg_koc_seat_name(unsigned seat);
/* Set-up (setup.c). */
hg_state *hg_koc_setup(const hg_gdata *data, const hg_game_record *rec, hg_diags *d);
hg_state *hg_koc_clone(const hg_state *s);
void hg_koc_free_state(hg_state *s);
int hg_koc_gen_tags(const hg_gdata *data, hg_prng *r, unsigned players,
		    const char *variant, hg_game_record *rec, hg_diags *d);
/* Notation (notation.c). */
/* Builds the action syntax from the table of shapes (at data load): 0,
 * or -1 short of memory inside a unit of work (nothing kept). */
int hg_koc_grammar_build(hg_koc_grammar *g);
void hg_koc_grammar_free(hg_koc_grammar *g);
hg_action *hg_koc_parse(const hg_state *s, const hg_action_text *t, hg_diags *d);
/* The same, matching every action against its verb's pattern (where
 * hg_koc_parse reads the canonical shape from the tokens): for the tests. */
hg_action *hg_koc_parse_by_patterns(const hg_state *s, const hg_action_text *t,
				    hg_diags *d);
void hg_koc_format(const hg_state *s, const hg_action *a, hg_buf *seat, hg_buf *body);
void hg_koc_free_action(hg_action *a);
/* Rules (engine.c). */
int hg_koc_apply(hg_state *s, const hg_action *a, hg_diags *d);
void hg_koc_legal(const hg_state *s, hg_action_list *out);
const char *hg_koc_result(const hg_state *s);
unsigned hg_koc_turn(const hg_state *s);
const char *hg_koc_to_move(const hg_state *s);
/* The points each seat scores now ('Winner by the points', ruling 9). */
void hg_koc_score_points(const hg_state *s, unsigned points[KOC_MAX_PLAYERS]);
/* The key of a seat's army in a sector (complete or not). */
hg_koc_key hg_koc_sector_key(const hg_state *s, unsigned seat, unsigned sector);
/* Seat views (view.c; hg_game_class's view members). */
int hg_koc_seat_find(const hg_state *s, const char *name);
const char *hg_koc_view_seat_name(const hg_state *s, unsigned seat);
void hg_koc_view_action(const hg_state *before, const hg_state *after, const hg_action *a,
			unsigned seat, hg_buf *seat_out, hg_buf *body);
int hg_koc_names_chance(const hg_state *s, const hg_action *a);
/* Position facts (facts.c; hg_game_class's facts and fact). */
extern const char *const hg_koc_facts[];
int hg_koc_fact(const hg_state *s, const char *name, const char *arg, hg_buf *out);
/* Rendering (render.c). */
void hg_koc_render(const hg_state *s, hg_buf *out);
/* master.c: remote play */
size_t hg_koc_chance_split(const hg_state *s, const char *seat, const char *body);
/* The position as JSON (position-json.c). */
struct json_t *hg_koc_position_json(const hg_state *s);

extern const hg_game_class hg_koc_class;

#endif
