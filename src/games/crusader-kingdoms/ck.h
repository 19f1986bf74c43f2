/* ck.h - Crusader Kingdoms (Jesús Peralta): the engine's shared types.
 *
 * The engine is split by concern:
 *   data.c       loading and validating the map, the decks and the scenarios
 *   effects.c    the card-effect vocabulary: reading it, and interpreting it
 *   cards.c      hands, draw piles, discards and the chance that moves cards
 *   turn.c       the turn (3, 5), draws, discards, passes, the card bonus (6)
 *   combat.c     the attack (4.1) and the combat (4.2)
 *   incursion.c  the incursion (4.3)
 *   events.c     playing an event (4.4)
 *   end.c        the end of the game: its winner (7.3) or its victory level (8.5)
 *   script-cards.c  a side no player controls (8.3): its face-down cards,
 *                its army, its face-up responses, and the choices the
 *                script makes for it
 *   script.c     that side's round (8.3, 8.4): the card revealed and played,
 *                the die that may send its army to attack
 *   notation.c   the action syntax read from the action's tokens, with a
 *                diagnostic for each fault (the one reader)
 *   notation-words.h  the syntax's words, English and Spanish: the one table
 *   notation-write.c  an action written back in the canonical spelling
 *   notation-action.c  an action's memory (the spare block)
 *   spellings.c  the canonical ids, sorted, found before hg_names_find
 *   legal.c      the legal actions (for `herald next` and `herald gen`)
 *   render.c     the plain-text picture of a position
 *   view.c       what one player's faction may see (herald view)
 *   position-json.c  the position as JSON, for the replay's JSON and page
 *   engine.c     the hg_game_class: set-up, apply, the rest of the contract
 *
 * Names that unit tests call start with hg_ck_; everything else shared
 * between these files starts with ck_ (not exported from libherald).
 */
#ifndef HERALD_CK_H
#define HERALD_CK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "action-cache.h"
#include "internal.h"

/* ------------------------------------------------------------------ limits
 * Bounds on what the data may declare and a record may write; exceeding one
 * is a diagnostic, never an overflow. */
#define CK_MAX_AREAS 64		/* areas of one map (adjacency is a bit mask) */
#define CK_MAX_CARDS 48		/* distinct cards in one deck */
#define CK_MAX_COPIES 32	/* copies of one card */
#define CK_MAX_DECK 255		/* cards in one deck, all copies */
#define CK_MAX_SIDES 8		/* factions of one scenario */
#define CK_MAX_ORDER 16		/* entries of a scenario's round order */
#define CK_MAX_TURNS 9		/* turns of one scenario */
#define CK_MAX_FX 4		/* effects on one card */
#define CK_MAX_LIST 64		/* cards, dice or areas in one list of an action */
#define CK_MAX_FACEUP 32	/* persistent events face up at once */
#define CK_MAX_ID 32		/* bytes of an id */
#define CK_MAX_LEVELS 8		/* victory levels of one scenario (8.5) */
#define CK_MAX_TABLE 64		/* cards in a scripted side's army, or responses face up */
#define CK_UNKNOWN 255		/* a card whose identity the record has not shown */
#define CK_MIN_BONUS (-2)	/* rule 6 */
#define CK_MAX_BONUS 2
#define CK_MAX_GAIN 4		/* the largest bonus step of an effect */

/* ------------------------------------------------------------------- data */
enum { CK_MUSLIM, CK_CHRISTIAN, CK_NRELIGIONS };

/* The canonical ids as records spell them, sorted, with what each names in
 * one or two hg_names tables (spellings.c): found by string comparison
 * before hg_names_find. */
typedef struct ck_spelling {
	size_t len;		/* strlen(name) */
	int value[CK_NRELIGIONS];	/* in each table; -1 (and [1] with one table) */
	unsigned char next;	/* the next entry whose first and last bytes
				   are in the same buckets, CK_SPELL_NONE */
	char name[CK_MAX_ID + 1];	/* folded, ASCII (in the entry: one load
					   less for each name looked up) */
} ck_spelling;

/* At most this many entries (the ids of a map, a scenario or both decks
 * are fewer); the index's "none". */
#define CK_SPELL_MAX 255
#define CK_SPELL_NONE 255

/* The index's buckets: a byte's low five bits, each letter's own (a
 * capital shares its small letter's, a digit or a sign some letter's:
 * the walk's compare of the whole name tells them apart). */
#define CK_SPELL_BUCKETS 32

static inline unsigned ck_spell_bucket(unsigned char c)
{
	return c & (CK_SPELL_BUCKETS - 1);
}

typedef struct ck_spellings {
	ck_spelling *v;
	int n;
	/* by_ends[bucket(f)][bucket(l)]: the first entry whose name begins
	 * with a byte of f's bucket and ends with one of l's, CK_SPELL_NONE.
	 * Found with one load from the word's two bytes, in the structure
	 * itself (1 KB, which stays in the cache): a row for each first
	 * byte, looked up first in a table of rows, was a load more on the
	 * way of every name. */
	unsigned char by_ends[CK_SPELL_BUCKETS][CK_SPELL_BUCKETS];
} ck_spellings;

typedef struct ck_area {
	char *id, *name;
	int defence;		/* the number in the shield */
	int number;		/* identification number (1- and 2-player side), 0 when none */
	int points;		/* victory points (1- and 2-player side) */
	uint64_t adj;		/* bit i: borders area i */
	int reconstructed;
} ck_area;

typedef struct ck_map {
	char *id, *name, *file;
	int reconstructed;
	ck_area *areas;
	int nareas;
	hg_names *names;	/* ids and aliases -> area index */
	ck_spellings spell;	/* the area ids -> area index */
} ck_map;

typedef enum ck_card_type { CK_TROOP, CK_EVENT, CK_RESPONSE } ck_card_type;

/* The sides a response may support (a bit set). */
enum { CK_SIDE_ATTACK = 1, CK_SIDE_DEFENCE = 2 };

/* The effect vocabulary (herald-crusader-kingdoms(7), EFFECTS). */
typedef enum ck_verb {
	/* responses, applied in the combat on the side they support */
	CK_FX_DICE,		/* n more dice */
	CK_FX_MODIFY,		/* up to n points in total added to that side's dice */
	CK_FX_REGROUP,		/* the n strongest troops of that side return to hand */
	/* events */
	CK_FX_RANDOM_DISCARD,	/* the target discards n cards at random */
	CK_FX_CHOSEN_DISCARD,	/* the target discards n cards the player chooses */
	CK_FX_STEAL,		/* the player takes n random cards from the target */
	CK_FX_BONUS,		/* the target's card bonus moves by n */
	CK_FX_FLIP,		/* one castle of the target turns: n = 1 up (+1), -1 down */
	CK_FX_DRAW,		/* the player draws n cards */
	CK_FX_ATTACK,		/* an attack (4.1) with n more dice */
	CK_FX_DEFENCE_DICE,	/* persistent: the player's areas defend with n more dice */
	CK_FX_TRUCE,		/* persistent: no attack or incursion between player and target */
	CK_NVERBS
} ck_verb;

typedef enum ck_target {
	CK_T_SELF,		/* the player */
	CK_T_PLAYER,		/* any other player */
	CK_T_OPPONENT,		/* a player of the other religion */
	CK_T_NEIGHBOUR		/* another player sharing a border */
} ck_target;

typedef struct ck_effect {
	ck_verb verb;
	int n;
	ck_target target;
	int needs_castle;	/* DICE: only for the defence of an area with a castle */
	int independent_only;	/* ATTACK: the target must be independent */
	int from_ally;		/* ATTACK: may attack from a co-religionist's area */
} ck_effect;

/* Where the script puts a response it reveals (8.3, 8.4; the deck's
 * `script` key). */
typedef enum ck_script_place {
	CK_SP_RESPONSE,		/* face up with the other responses (8.3) */
	CK_SP_ARMY_OR_RESPONSE,	/* joins the army if there is one, else a response (Líder) */
	CK_SP_ARMY_OR_DISCARD	/* joins the army if there is one, else discarded (Reagrupamiento) */
} ck_script_place;

typedef struct ck_card {
	char *id, *name, *text;
	ck_card_type type;
	int strength;		/* troops */
	int copies;
	int persistent;		/* events marked 'P' */
	int sides;		/* responses: CK_SIDE_* bits */
	ck_script_place script;	/* responses: where a scripted side puts it */
	int reconstructed;
	ck_effect fx[CK_MAX_FX];
	int nfx;
} ck_card;

typedef struct ck_deck {
	char *id, *name, *file;
	int religion;
	int reconstructed;
	ck_card *cards;
	int ncards;
	int total;		/* all copies */
	hg_names *names;
} ck_deck;

typedef struct ck_faction {
	char *id, *name, *colour;
	int religion;
	int castles;		/* castle tokens */
	int cards;		/* cards drawn each turn (before the bonus) */
	uint64_t deploy;	/* start areas */
	int player;		/* 0: a side no player controls (section 8) */
	int reconstructed;
} ck_faction;

/* A victory level (8.5): reached with `from` victory points or more (the
 * last level has no threshold: every score below the others). */
typedef struct ck_level {
	char *name;
	int from;
} ck_level;

typedef struct ck_scenario {
	char *id, *name;
	int players;		/* seats: factions with player = 1 */
	int map;		/* index into gdata maps */
	int turns;
	ck_faction *factions;
	int nfactions;
	int order[CK_MAX_ORDER];	/* the rounds' order: faction indexes */
	int norder;
	int against[CK_MAX_ORDER];	/* a scripted side's round: the player side
					   whose round precedes it (8.2), else -1 */
	int scripted;		/* some side is no player's (section 8) */
	unsigned players_mask;	/* bit f: faction f is a player's (from factions[]) */
	unsigned scripted_mask;	/* bit f: faction f is no player's */
	int no_attack_between[CK_NRELIGIONS];	/* 7.2 */
	int allies[CK_NRELIGIONS];	/* 8: players of the religion play together */
	int bonus_from_conquest;		/* 8.2: 0 when only events move it (no
						   castle turned for it either) */
	int final_pass;		/* 8.2: a player who passes plays no more this turn */
	/* Ruling 32, where 8.3 is silent: a scripted side turns its +1
	 * castles for its defence as the record says (else never), and spends
	 * Líder's points by the script's rule (else as the record says) */
	int script_turns_castles;
	int script_leader_rule;
	ck_level levels[CK_MAX_LEVELS];	/* 8.5: the end by victory points */
	int nlevels;		/* 0: the end of 7.3 (castles, sudden victory) */
	unsigned char removed[CK_NRELIGIONS][CK_MAX_CARDS];	/* 8.1 */
	hg_names *seats;	/* faction ids, aliases, P1.. -> faction index */
	ck_spellings spell;	/* the faction ids -> faction index */
} ck_scenario;

struct hg_gdata {
	ck_map *maps;
	int nmaps;
	ck_deck decks[CK_NRELIGIONS];
	ck_scenario *scenarios;
	int nscenarios;
	hg_names *scenario_names;
	ck_spellings card_spell;	/* card ids -> the card in each deck */
	hg_provs provs;		/* where each value of its files comes from */
};

/* ------------------------------------------------------------------ state */

/* A hand, as far as the record lets the referee know it.  `sure` counts
 * the cards it surely holds.  When a card leaves it unseen (a discard face
 * down, a hidden random card), the cards it surely held become a `pool`:
 * npool cards, each one of those counted in pool[][] (an upper bound per
 * card; a card X is still sure when pool[X] exceeds the others' slack).
 * `wild` cards were never identified (drawn as '?' without a Seed).  The
 * hand is exact when it has neither pool nor wild cards. */
typedef struct ck_hand {
	unsigned char sure[CK_NRELIGIONS][CK_MAX_CARDS];
	unsigned char pool[CK_NRELIGIONS][CK_MAX_CARDS];
	int npool, sumpool;
	int wild;
	int size;
} ck_hand;

/* A card of either deck; card CK_UNKNOWN when the record has not shown it. */
typedef struct ck_cardref {
	unsigned char religion, card;
} ck_cardref;

/* What a side no player controls holds (8.3): the cards it drew this
 * turn, face down, stack[0] the next to be revealed (its hand is a view of
 * them); its army (troops, and the responses joined to it); its responses
 * face up, in the order they came. */
typedef struct ck_tableau {
	ck_cardref stack[CK_MAX_DECK];
	int nstack;
	ck_cardref army[CK_MAX_TABLE];
	int narmy;
	ck_cardref reserve[CK_MAX_TABLE];
	int nreserve;
} ck_tableau;

typedef struct ck_player {
	int bonus;
	ck_hand hand;
	ck_tableau tab;		/* scripted sides only */
} ck_player;

/* One deck's cards outside the hands.  The draw pile's order is known only
 * when a Seed fixes the shuffles and no card left a hand unseen. */
typedef struct ck_pile {
	int exact;
	int n;			/* cards in the draw pile */
	int head;		/* exact: the next card is order[head] */
	unsigned char order[CK_MAX_DECK];
	unsigned char discard[CK_MAX_CARDS];	/* known cards in the discard pile */
	int ndiscard;		/* all cards there, known or not */
} ck_pile;

typedef struct ck_faceup {
	unsigned char religion, card, owner;
	signed char target;	/* the chosen player, -1 */
} ck_faceup;

typedef enum ck_phase { CK_PHASE_DRAW, CK_PHASE_ROUNDS, CK_PHASE_OVER } ck_phase;

struct hg_state {
	const struct hg_gdata *data;
	const ck_scenario *sc;
	const ck_map *map;
	int nsides;
	signed char owner[CK_MAX_AREAS];	/* faction, -1 independent (set with
						   ck_set_owner) */
	uint64_t held[CK_MAX_SIDES];	/* the same by faction: the areas it owns */
	unsigned char plus1[CK_MAX_AREAS];	/* the castle there shows +1 */
	ck_pile pile[CK_NRELIGIONS];
	ck_faceup faceup[CK_MAX_FACEUP];
	int nfaceup;
	int turn;		/* 1.. */
	ck_phase phase;
	int cursor;		/* DRAW: next drawer; ROUNDS: index into sc->order */
	int passes;		/* consecutive passes */
	unsigned passed;	/* factions that passed since the last other action
				   (with final passes: this turn) */
	int round;		/* rounds played this turn */
	int seeded;
	int bonus_each;		/* tag BonusDifference "each": each player's bonus
				   is set against the scripted sides' (ruling 36) */
	char result[CK_MAX_SIDES * (CK_MAX_ID + 2) + 1];
	hg_prng_wide dice;	/* "<Seed>/dice" */
	hg_prng random;		/* "<Seed>/random" */
	hg_prng shuffle[CK_NRELIGIONS][CK_MAX_TURNS + 1];	/* "<Seed>/<deck>/<turn>" */
	hg_action_cache *actions;	/* the blocks of the actions read from
					   the tokens (ck_parse_alloc), shared
					   with the clones (after the streams:
					   not a part of the position, which
					   tests compare byte by byte) */
	/* The sides, nsides of them: a state is allocated for its
	 * scenario's sides (ck_state_size), not for CK_MAX_SIDES, each of
	 * which is nearly a kilobyte that every game cleared and every
	 * copy copied.  So a state is copied with ck_state_size bytes, never
	 * by assignment (which copies no side). */
	ck_player p[];
};

/* The bytes of a state of n sides. */
static inline size_t ck_state_size_n(int nsides)
{
	return offsetof(hg_state, p) + (size_t)nsides * sizeof(ck_player);
}

static inline size_t ck_state_size(const hg_state *s)
{
	return ck_state_size_n(s->nsides);
}

/* A copy of the whole state (clone, and legal()'s scratch positions);
 * the try copy is NULL short of memory inside a unit of work that reports
 * it (util.c). */
hg_state *ck_state_copy(const hg_state *s);
hg_state *ck_state_try_copy(const hg_state *s);

/* ---------------------------------------------------------------- actions */
typedef enum ck_kind {
	CK_ACT_DRAW, CK_ACT_PASS, CK_ACT_DISCARD, CK_ACT_INCURSION, CK_ACT_PLAY, CK_ACT_ATTACK,
	CK_ACT_REVEAL
} ck_kind;

/* A card as written: its index in each deck (-1 where it is not in that
 * deck; both -1 for '?').  Which deck's copy is meant is settled by the
 * hand it comes from (own deck first). */
typedef struct ck_item {
	short card[CK_NRELIGIONS];
	hg_pos pos;
} ck_item;

typedef struct ck_items {
	int given;		/* the list was written */
	int count;		/* a written count ("draw 7 ?"), -1 */
	ck_item *v;
	int n;
	hg_pos pos;
} ck_items;

typedef struct ck_num {
	int v;
	hg_pos pos;
} ck_num;

typedef struct ck_mod {
	int from, to;
	hg_pos pos;
} ck_mod;

typedef struct ck_roll {
	int given;		/* 0: '?' */
	ck_num *dice;
	int ndice;
	ck_mod *mods;
	int nmods;
	int hits;		/* -1 when not written */
	hg_pos hits_pos;
	hg_pos pos;
} ck_roll;

typedef struct ck_response {
	int seat;
	ck_item card;
	int side;		/* CK_SIDE_ATTACK or CK_SIDE_DEFENCE */
	hg_pos pos;
} ck_response;

enum { CK_CHOICE_NONE, CK_CHOICE_BONUS, CK_CHOICE_CASTLE };

typedef struct ck_attack {
	int target;
	hg_pos target_pos;
	int from;		/* -1 */
	hg_pos from_pos;
	ck_item *with;
	int nwith;
	hg_pos with_pos;
	ck_response *resp;
	int nresp;
	ck_num *turned;		/* areas */
	int nturned;
	ck_roll roll[2];	/* attack, defence */
	int won;
	hg_pos outcome_pos;
	int choice;
	int castle;		/* CK_CHOICE_CASTLE: the area */
	hg_pos castle_pos;
} ck_attack;

typedef struct ck_play {
	ck_item card;
	int on;			/* the chosen player, -1 */
	hg_pos on_pos;
	int at;			/* the chosen area, -1 */
	hg_pos at_pos;
	int castle;		/* bonus past +2: the castle turned, -1 */
	hg_pos castle_pos;
	/* the castles the further steps of one gain past +2 turn (ruling 17) */
	int more_castles[CK_MAX_GAIN - 1];
	hg_pos more_pos[CK_MAX_GAIN - 1];
	int nmore;
	ck_items draws, takes, discards;
	int has_attack;
	ck_attack attack;
} ck_play;

/* A single die as the record writes it (an incursion's, a scripted army's):
 * CK_DIE_NONE when left out, CK_DIE_HIDDEN for '?', else the number written
 * (a 0 is a die out of range, not a hidden one: issue 25). */
#define CK_DIE_NONE (-1)
#define CK_DIE_HIDDEN (-2)

typedef struct ck_incursion {
	int target;
	hg_pos target_pos;
	ck_item card;
	int die;		/* CK_DIE_NONE, CK_DIE_HIDDEN, or as written */
	hg_pos die_pos;
	ck_items discards;
} ck_incursion;

/* Where the card a scripted side reveals (or takes) goes (8.3, 8.4). */
enum { CK_PLACE_NONE, CK_PLACE_ARMY, CK_PLACE_RESPONSE, CK_PLACE_DISCARDED };

/* A scripted side's round (8.3): the card revealed, the event's arguments
 * (as in 'play'), where the card goes, the die, the army's attack. */
typedef struct ck_reveal {
	ck_item card;
	ck_play args;		/* on, at, takes, discards, castle (no draws, no attack) */
	int place;
	hg_pos place_pos;
	int die;		/* CK_DIE_NONE, CK_DIE_HIDDEN, or as written */
	hg_pos die_pos;
	int has_attack;
	ck_attack attack;
} ck_reveal;

struct hg_action {
	ck_kind kind;
	int seat;
	hg_pos pos;
	hg_pos seat_pos;
	int end;		/* PASS: "pass end" */
	hg_action_cache *home;	/* read from the tokens: the cache the block
				   goes back to when freed (ck_free_action), its
				   lists in the block, after the action; NULL */
	/* Only the kind's own arguments are set, read and freed: an action
	 * made per action checked stays small enough for malloc's caches. */
	union {
		ck_items draw;		/* DRAW */
		ck_item discard;	/* DISCARD */
		ck_incursion inc;	/* INCURSION */
		ck_play play;		/* PLAY */
		ck_attack attack;	/* ATTACK */
		ck_reveal rev;		/* REVEAL */
	};
};

/* ------------------------------------------------------ data.c (loading) */
hg_gdata *ck_load(const hg_load_ctx *ctx, hg_buf *key, hg_diags *d);
extern const hg_data_tag ck_data_tags[];	/* { NULL }-ended */
void hg_ck_unload(hg_gdata *g);
/* Loads from explicit files (unit tests, user data); NULL after diagnostics. */
hg_gdata *hg_ck_load_files(const char *scenarios, const char *const *maps,
			   size_t nmaps, const char *const *decks, size_t ndecks,
			   hg_diags *d);
const char *ck_religion_name(int religion);

/* ------------------------------------------- byte comparisons (inline) */
/* memcmp(a, b, n) == 0 for ids, and hg_ascii_caseless_eq for keywords
 * (kw: n small letters), without a call: hg_ascii_same. */
static inline int ck_same_bytes(const char *a, const char *b, size_t n)
{
	return hg_ascii_same(a, b, n, 0);
}

static inline int ck_same_letters(const char *w, const char *kw, size_t n)
{
	return hg_ascii_same(w, kw, n, 0x20);
}

/* ck_same_bytes for an id of 4 to 16 bytes (nearly every id the records
 * write: "homs", "tropa-1", "reagrupamiento"; ck_spelling_find_n compares
 * the others out of line), without a branch on its length, which follows
 * no pattern: the branch between 4- and 8-byte words mispredicted at one
 * name in two.  Four 4-byte words at 0, o1, o2 and n - 4 cover the n
 * bytes: with n < 8, o1 = n - 4 and o2 = 0; from 8 on, o1 = 4 and o2 =
 * n - 8 (the two halves, 8 bytes each at most, overlapping).  Every word
 * lies within the n bytes. */
static inline int ck_same_id_4_16(const char *a, const char *b, size_t n)
{
	int wide = n >= 8;
	size_t o1 = wide ? 4 : n - 4, o2 = wide ? n - 8 : 0;
	uint32_t a0, b0, a1, b1, a2, b2, a3, b3;
	memcpy(&a0, a, 4);
	memcpy(&b0, b, 4);
	memcpy(&a1, a + o1, 4);
	memcpy(&b1, b + o1, 4);
	memcpy(&a2, a + o2, 4);
	memcpy(&b2, b + o2, 4);
	memcpy(&a3, a + n - 4, 4);
	memcpy(&b3, b + n - 4, 4);
	return ((a0 ^ b0) | (a1 ^ b1) | (a2 ^ b2) | (a3 ^ b3)) == 0;
}

/* ----------------------------------------------------------- spellings.c */
/* The entries for those of `ids` whose folded form is ASCII and names
 * something in tables[0..ntables) (at most CK_NRELIGIONS). */
void hg_ck_spellings_build(ck_spellings *sp, const char *const *ids, int nids,
			   const hg_names *const *tables, int ntables);
void hg_ck_spellings_free(ck_spellings *sp);
/* The entry spelled exactly `word`, or NULL. */
const ck_spelling *hg_ck_spelling_find(const ck_spellings *sp, const char *word);
/* The same for a word of `len` bytes (its length known: a token's). */
const ck_spelling *hg_ck_spelling_find_n(const ck_spellings *sp, const char *word, size_t len);
/* The lookup of ck_spelling_find_n for a word of any length, out of line
 * (spellings.c). */
const ck_spelling *ck_spelling_find_any(const ck_spellings *sp, const char *word, size_t len);

/* The same, inline for the parser's every name: the ids with the word's
 * first and last bytes ("tropa-1" .. "tropa-4" differ there) are found by
 * a direct index on their buckets, nearly always one id, compared whole
 * (a scan of the ids with the same first byte cost a mispredicted branch
 * or two for every name).  Inlined in each caller: a call saved and restored
 * five registers for a lookup of a few loads.  A word of 4 to 16 bytes
 * (ck_spelling_inline_len: nearly every one) is compared inline; any
 * other is looked up by ck_spelling_find_any.  The token reader sends
 * such a word there itself, before this lookup, with a tail call: with a
 * call to come back from left in the lookup, rare as it was, each caller
 * saved and restored six registers at every name. */
static inline int ck_spelling_inline_len(size_t len)
{
	return len - 4 <= 12;	/* 4 to 16 (wraps below 4) */
}

/* The walk of both lookups down the ids with the word's first and last
 * bytes; `id_4_16` (a constant where it is inlined): the word has 4 to 16
 * bytes, compared by ck_same_id_4_16, else by ck_same_bytes. */
static inline HG_ALWAYS_INLINE const ck_spelling *ck_spelling_walk(const ck_spellings *sp,
								    const char *word, size_t len,
								    int id_4_16)
{
	if ((!id_4_16 && len == 0) || sp->n == 0)
		return NULL;
	unsigned f = (unsigned char)word[0], l = (unsigned char)word[len - 1];
	if ((f | l) >= 128)	/* no id holds such a byte */
		return NULL;
	for (unsigned i = sp->by_ends[ck_spell_bucket(f)][ck_spell_bucket(l)]; i != CK_SPELL_NONE;
	     i = sp->v[i].next) {
		const ck_spelling *e = &sp->v[i];
		if (e->len == len && (id_4_16 ? ck_same_id_4_16(e->name, word, len) :
						ck_same_bytes(e->name, word, len)))
			return e;
	}
	return NULL;
}

static inline HG_ALWAYS_INLINE const ck_spelling *ck_spelling_find_n(const ck_spellings *sp,
								      const char *word, size_t len)
{
	if (!ck_spelling_inline_len(len))
		return ck_spelling_find_any(sp, word, len);
	return ck_spelling_walk(sp, word, len, 1);
}

/* Builds every map's, scenario's and the decks' spellings. */
void ck_spellings_load(hg_gdata *g);

/* ------------------------------------------------------------ effects.c */
/* Reads one card's `effects` list; 0 or -1 after diagnostics. */
int ck_effects_load(ck_card *card, const hg_ynode *list, hg_diags *d);
/* What one response card brings to the side it supports. */
typedef struct ck_support {
	int dice, points, regroup, needs_castle;
} ck_support;
void ck_response_support(const ck_card *c, ck_support *s);
/* The attack an event starts, if any (NULL). */
const ck_effect *ck_event_attack(const ck_card *c);
/* Extra dice the faction's face-up events give the defence of its areas. */
int hg_ck_persistent_defence(const hg_state *s, int faction);
/* Is a truce face up between a and b? */
int hg_ck_truce_between(const hg_state *s, int a, int b);
/* Applies the non-attack effects of an event `c` played by `seat`. */
int ck_effects_apply(hg_state *s, int seat, const ck_card *c, const ck_play *p,
		     hg_diags *d);
/* Does `target` qualify as the effect's target for `seat`? */
int ck_target_ok(const hg_state *s, int seat, ck_target t, int target);
const char *ck_target_phrase(ck_target t);
/* Can the script of 8.3 play this event (each step in the scripted side's
 * favour)?  1, or 0 with *why saying which step it cannot play. */
int ck_event_scriptable(const ck_card *c, const char **why);
/* Are a and b allies (8: the cooperative game), who neither attack, raid
 * nor target each other? */
int ck_allied(const hg_state *s, int a, int b);

/* --------------------------------------------------------------- cards.c */
/* (The small accessors are inline: each is asked for several times in
 * every action.) */
static inline const ck_card *ck_card_at(const hg_state *s, int religion, int card)
{
	return &s->data->decks[religion].cards[card];
}
/* Copies of the card the hand surely holds: its sure ones, and the pool's
 * where the pool holds more of them than it has slack (hg_ck_hand_sure for
 * the tests; the hg_ names are exported, so calls to them inside the
 * library are not inlined). */
static inline int ck_hand_sure(const ck_hand *h, int religion, int card)
{
	int v = h->pool[religion][card] - (h->sumpool - h->npool);
	return h->sure[religion][card] + (v > 0 ? v : 0);
}

static inline void ck_hand_add(ck_hand *h, int religion, int card)
{
	h->sure[religion][card]++;
	h->size++;
}

int hg_ck_hand_sure(const ck_hand *h, int religion, int card);
int ck_hand_exact(const ck_hand *h);
void hg_ck_hand_add(ck_hand *h, int religion, int card);
/* Takes a card the hand surely holds out of it. */
void ck_hand_remove_sure(ck_hand *h, int religion, int card);
/* Copies of the card the hand may hold (sure or in the pool). */
int ck_hand_may(const ck_hand *h, int religion, int card);
void ck_hand_add_wild(ck_hand *h);
/* Takes a named card out of a hand.  Returns 1 surely there, 0 possibly
 * (unverified), -1 certainly not; *religion gets the deck it came from. */
int ck_hand_take(ck_hand *h, const ck_item *it, int own, int *religion);
/* Takes a card unseen out of a hand. */
void ck_hand_take_hidden(ck_hand *h);
/* Copies of the card that may still be in the draw pile. */
int ck_available(const hg_state *s, int religion, int card);
/* The next card of an exact pile, or -1. */
static inline int ck_pile_draw(hg_state *s, int religion)
{
	ck_pile *p = &s->pile[religion];
	if (p->n == 0)
		return -1;
	p->n--;
	return p->exact ? p->order[p->head++] : -1;
}

static inline void ck_pile_discard(hg_state *s, int religion, int card)
{
	s->pile[religion].discard[card]++;
	s->pile[religion].ndiscard++;
}
void ck_pile_discard_hidden(hg_state *s, int religion);
/* Lays the deck's cards out in its order, card c as many times as its
 * copies less out[c] (none when out[c] is more), into order (room for
 * CK_MAX_DECK); returns how many.  (The loader allows at most
 * CK_MAX_COPIES of a card and CK_MAX_DECK in all, so each card's copies
 * are put down with one store of CK_MAX_COPIES bytes, later ones over
 * the surplus: a loop of a card's copies, which the compiler made a
 * call to memset for each card.) */
int hg_ck_deck_lay_out(const ck_deck *k, const int *out, unsigned char *order);
/* Shuffles each deck's cards outside the hands into a new draw pile. */
void ck_piles_reshuffle(hg_state *s);
/* Picks a card of an exact hand at random (stream "random"); -1 when the
 * hand is not exact. */
int ck_hand_random(hg_state *s, const ck_hand *h, int *religion);
/* Hand text: "lider, tropa-2 x2, ? x3". */
void ck_hand_describe(const hg_state *s, const ck_hand *h, hg_buf *out);
/* Card name as written in diagnostics. */
const char *ck_item_name(const hg_state *s, const ck_item *it, int own);
static inline int ck_item_religion(const ck_item *it, int own)
{
	if (it->card[own] >= 0)
		return own;
	return it->card[!own] >= 0 ? !own : -1;
}
/* Removes a card the record names from the seat's hand, reporting it as
 * not held (error, returns -1) or unverifiable (unverified).  *religion and
 * *card get what was taken. */
int ck_take_card(hg_state *s, int seat, const ck_item *it, const char *rule,
		 int *religion, int *card, hg_diags *d);
/* Random discards or thefts of n cards from `victim` (rule 4.3, events):
 * checks the record's `items` against the Seed or the hand. `to` receives
 * the cards (-1: the discard pile; -2: neither, they are only taken). The
 * cards taken go to taken[] when it is not NULL (card -1: not known). */
int ck_random_cards(hg_state *s, int victim, int n, int to, const ck_items *items,
		    hg_pos pos, const char *rule, ck_cardref *taken, hg_diags *d);
/* Draws n cards for seat (start of turn, events), checking the record. */
int ck_draw_cards(hg_state *s, int seat, int n, const ck_items *items, hg_pos pos,
		  const char *rule, hg_diags *d);

/* ---------------------------------------------------------- script-cards.c */
static inline int ck_scripted(const hg_state *s, int faction)
{
	/* the scenario's mask (data.c, from factions[].player): one load
	 * fewer in a chain asked at every round and every combat */
	return faction >= 0 && ((s->sc->scripted_mask >> faction) & 1);
}
/* A scripted side's face-down cards (its hand is rebuilt from them). */
void hg_ck_stack_push(hg_state *s, int f, int religion, int card);
/* The same for n cards at once (a draw): the hand rebuilt once, not once
 * a card. */
void ck_stack_push_n(hg_state *s, int f, int religion, const int *cards, int n);
/* Takes the card at position i out. */
ck_cardref ck_stack_take_at(hg_state *s, int f, int i);
/* The same for the top card revealed (8.3), in a position the rules
 * reached, where the hand is the stack's view: that card's count less,
 * the hand not rebuilt. */
ck_cardref ck_stack_reveal_top(hg_state *s, int f);
/* Takes a card the record names (card -1: unseen) out; where it was is
 * not known, so the cards it may have been among lose their identity.
 * -1 when the stack cannot hold it. */
int hg_ck_stack_take_named(hg_state *s, int f, int religion, int card);
int ck_stack_exact(const hg_state *s, int f);
void ck_table_push(ck_cardref *v, int *n, int religion, int card);
void ck_table_remove(ck_cardref *v, int *n, int i);
/* Cards of the deck on the table (armies, responses face up). */
int hg_ck_on_table(const hg_state *s, int religion, int card);
/* The script's choices (8.3, 8.4). */
int ck_against(const hg_state *s);
int hg_ck_army_strength(const hg_state *s, int f);
int ck_script_rolls(const hg_state *s, int f);
/* Its second condition: some player side holds an area. */
int ck_crusaders_hold_area(const hg_state *s);
int hg_ck_script_target(const hg_state *s, int f, int against);
/* The area of `mask` with the lowest identification number (8.3), or -1. */
int ck_lowest_numbered(const hg_state *s, uint64_t mask);
int ck_script_flip_area(const hg_state *s, int f, int against, const ck_effect *fx);
int ck_script_castle(const hg_state *s, int f);
int hg_ck_script_placement(const hg_state *s, int f, int religion, int card, int stolen);
int ck_script_event_acts(const hg_state *s, int f, int against, const ck_card *c);
int ck_script_response(const hg_state *s, int f, int target, int attack_dice);
/* Líder's points as the script spends them: the dice nearest below 4 raised
 * to 4, cheapest first, as far as the points go.  Returns the count. */
int hg_ck_script_mods(const int *dice, int n, int points, ck_mod *mods);
/* Lists a scripted side's face-down cards, army and responses. */
void ck_tableau_describe(const hg_state *s, int f, hg_buf *out);

/* -------------------------------------------------------------- script.c */
int ck_apply_reveal(hg_state *s, const hg_action *a, hg_diags *d);
/* The same round up to the army's attack, not resolved (pending.c). */
int ck_reveal_before_attack(hg_state *s, const hg_action *a, hg_diags *d);
/* Puts a card the script deploys where it goes (8.3, 8.4): the army, the
 * responses face up, or the discard pile (CK_PLACE_NONE: nowhere). */
void ck_deploy_card(hg_state *s, int seat, int religion, int card, int place);

/* ---------------------------------------------------------------- turn.c */
/* Rule 6: how many cards a player draws at the start of a turn. */
int hg_ck_draw_count(int cards, int bonus, int kept);
int ck_apply_draw(hg_state *s, const hg_action *a, hg_diags *d);
int ck_apply_pass(hg_state *s, const hg_action *a, hg_diags *d);
int ck_apply_discard(hg_state *s, const hg_action *a, hg_diags *d);
/* After each round's action: the next round, or the end of the turn (3,
 * step 4; 5).  `passed`: the action was a pass. */
void ck_next_round(hg_state *s, int passed);
/* Rule 6: the card bonus gains n; past +2 each step becomes a castle turned
 * to +1 (the area `castle`, -1 when none was named). */
int hg_ck_bonus_gain(hg_state *s, int seat, int n, const ck_play *p, hg_pos pos, hg_diags *d);
void hg_ck_bonus_lose(hg_state *s, int seat, int n);
/* The faction whose action comes next, or -1 when the game is over
 * (inline: asked before every action). */
static inline int ck_seat_to_act(const hg_state *s)
{
	switch (s->phase) {
	case CK_PHASE_DRAW:
		return s->cursor;
	case CK_PHASE_ROUNDS:
		return s->sc->order[s->cursor];
	case CK_PHASE_OVER:
		break;
	}
	return -1;
}
int hg_ck_castles_on_map(const hg_state *s, int faction);
static inline int ck_borders(const hg_state *s, int a, int b)
{
	return (s->map->areas[a].adj >> b) & 1;
}
/* The same by a scan of owner[], as held[] must say it. */
uint64_t hg_ck_areas_scan(const hg_state *s, int faction);
/* The areas the faction owns (held[]; -1: the independent areas).  Asked
 * several times for each attack and each scripted round: kept by faction
 * as areas change hands, rather than scanned for. */
/* rests-on.c: notes that the verdict of dg rests on `what` ("defence",
 * "adjacent") of an area of the map in play, when that is reconstructed
 * (herald-data(5)). */
void ck_rests_on_area(hg_diag *dg, const hg_state *s, int area, const char *what);

static inline uint64_t ck_areas_of(const hg_state *s, int faction)
{
	if (faction >= 0 && faction < CK_MAX_SIDES)
		return s->held[faction];
	return hg_ck_areas_scan(s, faction);
}
/* The area changes hands (owner[] and held[]; hg_ck_set_owner for the
 * tests). */
static inline void ck_set_owner(hg_state *s, int area, int faction)
{
	uint64_t bit = (uint64_t)1 << area;
	if (s->owner[area] >= 0)
		s->held[s->owner[area]] &= ~bit;
	if (faction >= 0)
		s->held[faction] |= bit;
	s->owner[area] = (signed char)faction;
}

void hg_ck_set_owner(hg_state *s, int area, int faction);

/* -------------------------------------------------------------- combat.c */
/* The attack (4.1, 4.2); `fx` is the attack step of the event that
 * starts it, or NULL. */
int ck_attack_resolve(hg_state *s, int seat, const ck_attack *a, const ck_effect *fx,
		      hg_diags *d);
/* A scripted side's army attacks (8.3): its cards are the army's. */
int ck_army_attack(hg_state *s, int seat, const ck_attack *a, hg_diags *d);
/* Checks step 1 of 4.1 for the target alone (0 or -1; d may be NULL). */
int ck_attack_target_ok(const hg_state *s, int seat, int target, const ck_effect *fx,
			hg_pos pos, hg_diags *d);
/* The dice of each side as the rules count them (4.2); `army`: the
 * attacker's cards are its army (8.3). */
void ck_dice_counts(const hg_state *s, int seat, const ck_attack *a, const ck_effect *fx,
		    int army, int counts[2]);
int ck_apply_attack(hg_state *s, const hg_action *a, hg_diags *d);
/* Counts the hits of a roll after modifications (hg_ck_hits for the
 * tests). */
static inline int ck_hits(const int *dice, int n)
{
	int hits = 0;
	for (int i = 0; i < n; i++)
		hits += dice[i] >= 4;	/* 4.2: each 4, 5 or 6 is a hit */
	return hits;
}

int hg_ck_hits(const int *dice, int n);

_Static_assert(CK_MAX_LIST < 256, "a count of one face must fit in a byte");

/* A die showing v (1 to 6) in a count of each face, face f in byte f (at
 * most CK_MAX_LIST dice: a count fits in its byte), kept in a register
 * rather than an array whose every increment waits for the one before. */
static inline uint64_t ck_face_bit(int v)
{
	return (uint64_t)1 << (8 * v);
}

/* ck_hits of the dice counted in `faces` (ck_face_bit): the 4s, 5s and
 * 6s, without a loop over the dice. */
static inline int ck_face_hits(uint64_t faces)
{
	return (int)((faces >> 32 & 0xff) + (faces >> 40 & 0xff) + (faces >> 48 & 0xff));
}

/* ----------------------------------------------------------- incursion.c */
int ck_apply_incursion(hg_state *s, const hg_action *a, hg_diags *d);
int ck_share_border(const hg_state *s, int a, int b);

/* -------------------------------------------------------------- events.c */
int ck_apply_play(hg_state *s, const hg_action *a, hg_diags *d);
/* The event up to the attack it starts, not resolved (pending.c); the
 * attack effect of the card played, or NULL. */
int ck_play_before_attack(hg_state *s, const hg_action *a, hg_diags *d);
const ck_effect *ck_play_attack_effect(const hg_state *s, const hg_action *a);

/* ----------------------------------------------------------------- end.c */
/* Sudden victory (7.3) after `seat` placed a castle. */
void hg_ck_check_sudden(hg_state *s, int seat);
/* The end of the last turn (7.3, 8.5). */
void hg_ck_final_result(hg_state *s);
/* 8.5: the crusaders' victory points now. */
int hg_ck_victory_points(const hg_state *s);

/* ------------------------------------------------------------ notation.c */
/* The action read from its tokens (grammar/crusader-kingdoms.ebnf), or
 * NULL with at least one error in d (which may be NULL). */
hg_action *ck_parse(const hg_state *s, const hg_action_text *t, hg_diags *d);
/* Is `name` a word that ends a list in the action syntax (notation-
 * words.h), in any case and accents?  No name may be one (data.c). */
int ck_word_ends_list(const char *name);

/* ------------------------------------------------------ notation-write.c */
void ck_format(const hg_state *s, const hg_action *a, hg_buf *seat, hg_buf *body);
/* Seat views (view.c; hg_game_class's view members). */
int ck_seat_find(const hg_state *s, const char *name);
const char *ck_view_seat_name(const hg_state *s, unsigned seat);
void ck_view_action(const hg_state *before, const hg_state *after, const hg_action *a,
		    unsigned seat, hg_buf *seat_out, hg_buf *body);
int ck_names_chance(const hg_state *s, const hg_action *a);
/* Position facts (facts.c; hg_game_class's facts and fact). */
extern const char *const ck_facts[];
int ck_fact(const hg_state *s, const char *name, const char *arg, hg_buf *out);
void ck_free_action(hg_action *a);
void ck_format_attack(const hg_state *s, int seat, const ck_attack *at, hg_buf *out);
hg_action *ck_action_new(ck_kind kind, int seat);
/* memset(p, 0, n) out of line (notation-action.c), where the size is not
 * known: inlined with its size, a clear of a few hundred bytes became
 * `rep stos`, whose start-up cost more than the library's vector stores
 * take for all of it. */
void ck_clear_bytes(void *p, size_t n);
/* ck_action_new in place: zeroes `a`, then sets what is -1 when not
 * written.  Only the header and the kind's own arguments are cleared, the
 * only part of an action that is set, read and freed: a pass or a draw
 * clears a few dozen bytes, not the room a reveal needs.  A reveal's
 * event arguments have no attack (read_effect_args, read_reveal): that
 * part of them is left alone too.  Inline, the token reader's call for
 * each kind (a constant there) is left with that kind's stores, without
 * a jump on the kind. */
static inline void ck_action_init(hg_action *a, ck_kind kind, int seat)
{
	const size_t head = offsetof(hg_action, draw);
	switch (kind) {
	case CK_ACT_DRAW:
		ck_clear_bytes(a, head + sizeof a->draw);
		a->draw.count = -1;
		break;
	case CK_ACT_PASS:	/* the header alone: a few stores, inline */
		memset(a, 0, head);
		break;
	case CK_ACT_DISCARD:
		ck_clear_bytes(a, head + sizeof a->discard);
		break;
	case CK_ACT_INCURSION:
		ck_clear_bytes(a, head + sizeof a->inc);
		a->inc.die = CK_DIE_NONE;
		break;
	case CK_ACT_PLAY:
		ck_clear_bytes(a, head + sizeof a->play);
		a->play.on = a->play.at = a->play.castle = -1;
		break;
	case CK_ACT_ATTACK:
		ck_clear_bytes(a, head + sizeof a->attack);
		break;
	case CK_ACT_REVEAL:
		ck_clear_bytes(a, head + offsetof(ck_reveal, args.attack));
		ck_clear_bytes(&a->rev.place, sizeof a->rev - offsetof(ck_reveal, place));
		a->rev.args.on = a->rev.args.at = a->rev.args.castle = -1;
		a->rev.args.draws.count = a->rev.args.takes.count = -1;
		a->rev.args.discards.count = -1;
		a->rev.die = CK_DIE_NONE;
		break;
	}
	a->kind = kind;
	a->seat = seat;
}

/* ck_action_new for the tokens' reading: a block of the state's cache
 * (the spare one, whose contents are written before they are read, when
 * it is large enough), with `room` bytes after the action for its lists
 * (notation.c), holding a reference to the cache; NULL short of memory
 * (the unit of work reports it). */
static inline hg_action *ck_parse_alloc(const hg_state *s, ck_kind kind, int seat, size_t room)
{
	hg_action *a = hg_action_cache_take_size(s->actions, sizeof *a + room);
	if (!a)
		return NULL;
	ck_action_init(a, kind, seat);
	a->home = s->actions;
	return a;
}
void ck_free_attack(ck_attack *a);

/* --------------------------------------------------------------- legal.c */
void ck_legal(const hg_state *s, hg_action_list *out);
/* The Seed's rolls and outcome of an attack in the position where it
 * begins (dice and Líder's points spent as legal() spends them); fx the
 * event's attack effect, army 1 for a scripted side's army. */
void ck_attack_roll(const hg_state *s, int seat, ck_attack *a, const ck_effect *fx, int army);

/* -------------------------------------------------------------- render.c */
void ck_render(const hg_state *s, hg_buf *out);
/* The position as JSON (position-json.c). */
struct json_t *hg_ck_position_json(const hg_state *s);

/* -------------------------------------------------------------- engine.c */
extern const hg_game_class hg_ck_class;
hg_state *hg_ck_state_new(const hg_gdata *g, const ck_scenario *sc, const char *seed);

/* ---------------------------------------------------------------- master.c */
/* Remote play: the seats players hold, and where an action's chance begins. */
size_t hg_ck_chance_split(const hg_state *s, const char *seat, const char *body);
void hg_ck_resign_result(const hg_state *s, unsigned seat, hg_buf *out);
/* The attack held pending while the other seats answer (pending.c;
 * herald-move(1), PENDING ACTIONS). */
int ck_pending_open(const hg_state *s, const char *seat, const char *body, hg_pending *p,
		    hg_diags *d);
int ck_pending_answer(const hg_state *s, hg_pending *p, const char *seat, const char *text,
		      hg_diags *d);
int ck_pending_finish(const hg_state *s, const hg_pending *p, hg_buf *body, hg_diags *d);
void ck_pending_steps(const hg_state *s, const hg_pending *p, const char *seat, hg_buf *out);
/* Does the player's attack `a` hold what other seats decide (their
 * responses, the castles turned), where they would answer it pending? */
int ck_attack_decides_for_others(const hg_state *s, const hg_action *a);

#endif
