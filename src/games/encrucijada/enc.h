/* enc.h - Encrucijada: Guerra de las Épocas, shared inside the engine.
 *
 * The rule text is ../shared/rules/encrucijada.es.txt; section names in
 * comments and diagnostics follow it ("rule 6.D2", "rule 2, Costo").  The
 * manual herald-encrucijada(7) describes the rules as enforced and every
 * ruling herald makes where the text is silent.
 *
 * Layout of the engine:
 *   data.c        the card pool: resources, civilisations, cards, towers
 *   effect.c      the effect language: parsing effects from YAML
 *   effect-run.c  the effect language: checking, applying, priority
 *   deck.c        deck files and the construction rules (rule 1)
 *   state.c       set-up from the tags, piles and shuffles, card zones
 *   activation.c  resources, activation, modifiers and their expiry
 *   turn.c        set-up action and the turn phases A, B, C, E, F
 *   war.c         phase D: declaration, battle, invasion, regroup
 *   victory.c     elimination and the three ways to win (rule 4)
 *   notation.c    the action reader (grammar/encrucijada.ebnf)
 *   notation-write.c  actions written back canonically
 *   render.c      the plain-text picture of a position
 *   view.c        what one seat may see (herald view)
 *   position-json.c  the position as JSON, for the replay's JSON and page
 *   legal.c       the legal actions and the tags of a random game
 *   engine.c      the hg_game_class and the dispatch of actions
 */
#ifndef HERALD_ENC_H
#define HERALD_ENC_H

#include "action-cache.h"
#include "herald-engine.h"
#include "internal.h"
#include "pattern.h"

/* For a function off a hot path's shortcut, that the shortcut does not
 * pay for its frame (the registers it saves) where it is inlined. */
#if defined(__GNUC__)
#define ENC_NOINLINE __attribute__((noinline))
#else
#define ENC_NOINLINE
#endif

/* ------------------------------------------------------------------ limits */
#define ENC_MIN_SEATS 2
#define ENC_MAX_SEATS 6		/* rule 1: "De 2 a 6 jugadores" */
#define ENC_MIN_DECK 40		/* rule 1: a deck of 40 to 60 cards */
#define ENC_MAX_DECK 60
#define ENC_MAX_COPIES 5	/* rule 1: copies of one name (basto, copa, espada) */
#define ENC_MAX_ORO 10		/* rule 1: oro cards in all */
#define ENC_PILES 3		/* rule 1, B: three piles */
#define ENC_SETUP_CARDS 6	/* rule 5: the first 6 cards of one pile */
#define ENC_HAND_TARGET 6	/* rule 6.A: draw up to 6 */
#define ENC_PUT_LIMIT 4		/* rule 6.B: put down up to 4 */
#define ENC_WIN_RESOURCE 150	/* rule 4: "Sumar 150 en 1 Recurso" */
#define ENC_WIN_PER_ALLY 100	/* rule 4: "+100 por aliado" */
#define ENC_TOWER_RESISTANCE 50	/* rule 1: towers have the number 50 */

#define ENC_MAX_RES 32		/* resource types in one card pool (the designer's
				   interview: more than 12) */
/* rule 4, Objetivo del juego: "Se puede establecer otros objetivos,
 * combinarlos" (the Objectives tag). */
enum {
	ENC_OBJ_CONQUER = 1 << 0,	/* Conquistar: a tower at 0 loses */
	ENC_OBJ_GOVERN = 1 << 1,	/* Gobernar: 150 of a resource wins */
	ENC_OBJ_RESIST = 1 << 2,	/* Resistir: a pile run out loses */
	ENC_OBJ_ALL = ENC_OBJ_CONQUER | ENC_OBJ_GOVERN | ENC_OBJ_RESIST
};

#define ENC_MAX_STACKS 26	/* hidden stacks are named a to z */
#define ENC_MAX_MODS 64		/* modifiers in force at once */
#define ENC_MAX_BANS 32		/* restrictions in force at once */
#define ENC_MAX_PENDING 12	/* effects waiting in one exchange */
#define ENC_MAX_ITEMS 16	/* chosen items in one effect use */
#define ENC_MAX_OUTCOME 8	/* stated outcome parts of one use */
#define ENC_MAX_STEPS 12	/* steps of one effect */
#define ENC_MAX_COUNT 10	/* cards one step may discard, destroy or draw */

/* ------------------------------------------------------------------ cards */
typedef enum enc_suit {
	ENC_ORO, ENC_COPA, ENC_BASTO, ENC_ESPADA, ENC_NSUITS
} enc_suit;

/* Characteristics and marks as bits (rule 2, Característica, Invasión). */
enum {
	ENC_MARK_VOLADOR = 1 << 0,
	ENC_MARK_ANTIAEREO = 1 << 1,
	ENC_MARK_MARINO = 1 << 2,
	ENC_MARK_INVADE = 1 << 3,
	ENC_MARK_DEFENCE = 1 << 4
};

typedef struct enc_resource {
	char *id;
	char *name;
	int special;		/* Sagrait, Ídolo Maldito (rule 2): not a target */
	hg_pos pos;
} enc_resource;

typedef struct enc_civ {
	char *id;
	char *name;
	int shielded;		/* Pacificadores, Avance: resources untouchable */
	hg_pos pos;
} enc_civ;

/* ---------------------------------------------------------------- effects */
typedef enum enc_step_kind {
	ENC_STEP_DISCARD,	/* discard N of your own cards (a cost) */
	ENC_STEP_DESTROY,	/* discard N visible cards of the target */
	ENC_STEP_DRAW,		/* draw N cards from your piles */
	ENC_STEP_BOOST,		/* value and marks for a duration */
	ENC_STEP_WEAR,		/* wear on a side of the current war */
	ENC_STEP_TOWER,		/* damage or repair a tower */
	ENC_STEP_RESOURCE,	/* a resource for a duration */
	ENC_STEP_DRAIN,		/* the target loses a resource for a duration */
	ENC_STEP_FORBID,	/* "no puedes declarar guerra en tu turno" */
	ENC_STEP_ATTACK_AGAIN,	/* the attacking card attacks once more */
	ENC_STEP_UNEXPRESSED	/* text the language cannot express */
} enc_step_kind;

typedef enum enc_zone_pick {	/* where DISCARD takes its cards */
	ENC_FROM_TABLE, ENC_FROM_TOWN, ENC_FROM_HIDDEN, ENC_FROM_HAND
} enc_zone_pick;

typedef enum enc_scope {	/* which cards a BOOST reaches */
	ENC_SCOPE_ALL, ENC_SCOPE_TOWN, ENC_SCOPE_ATTACKING, ENC_SCOPE_SOURCE
} enc_scope;

typedef enum enc_duration {
	ENC_DUR_INSTANT, ENC_DUR_TURN, ENC_DUR_ROUND, ENC_DUR_WAR
} enc_duration;

typedef enum enc_forbid {
	ENC_FORBID_WAR, ENC_FORBID_EFFECTS, ENC_FORBID_PUT
} enc_forbid;

typedef enum enc_whom { ENC_WHO_SELF, ENC_WHO_TARGET } enc_whom;

typedef struct enc_step {
	enc_step_kind kind;
	hg_pos pos;
	int count;		/* DISCARD, DESTROY, DRAW */
	enc_zone_pick from;	/* DISCARD */
	int max_value;		/* DESTROY: -1 for any */
	int suit;		/* DESTROY: -1 for any */
	unsigned need_marks;	/* DESTROY: cards with all these marks */
	int amount;		/* BOOST value, WEAR, TOWER (signed), RESOURCE */
	unsigned grant;		/* BOOST: marks granted */
	enc_scope scope;	/* BOOST */
	enc_duration duration;	/* BOOST, RESOURCE, FORBID (turn only) */
	enc_whom who;		/* BOOST, TOWER, FORBID: whose; WEAR: side */
	int res;		/* RESOURCE, DRAIN: type, -1 = chosen by the user */
	enc_forbid forbid;	/* FORBID */
	char *text;		/* UNEXPRESSED */
} enc_step;

typedef enum enc_target_kind {
	ENC_TARGET_NONE,	/* the effect names no player */
	ENC_TARGET_OPPONENT,	/* a player of another team */
	ENC_TARGET_PLAYER	/* any other player */
} enc_target_kind;

/* Where an effect may be used (all by default, within rule 6). */
enum {
	ENC_WHEN_TURN = 1 << 0,		/* phases C and E of your own turn */
	ENC_WHEN_WAR = 1 << 1,		/* a war you take part in */
	ENC_WHEN_RESPONSE = 1 << 2,	/* as the target of another effect */
	ENC_WHEN_ATTACKING = 1 << 3,	/* only from the attacking card */
	ENC_WHEN_ALL = ENC_WHEN_TURN | ENC_WHEN_WAR | ENC_WHEN_RESPONSE
};

typedef struct enc_effect {
	hg_pos pos;
	char *text;		/* the card's wording, informational */
	enc_target_kind target;
	unsigned when;
	int battle;		/* copa: usable in battle without attacking */
	enc_step *steps;
	size_t nsteps;
	int unexpressed;	/* some step is ENC_STEP_UNEXPRESSED */
} enc_effect;

typedef struct enc_card {
	char *id;
	char *name;
	char **aliases;
	size_t naliases;
	hg_pos pos;
	int civ;		/* -1 for towers outside a civilisation */
	int number;		/* collector number (not used in play) */
	enc_suit suit;
	int value;		/* towers: the resistance */
	int provides[ENC_MAX_RES];
	int cost[ENC_MAX_RES];
	/* The resources with a non-zero amount in provides[] and cost[], for
	 * the activation checks that run after every action. */
	signed char provides_list[ENC_MAX_RES], cost_list[ENC_MAX_RES];
	int nprovides, ncost;
	/* The same cost as two pairs (resource, amount), for enc_covers'
	 * check without a loop: a cost names at most 2 resources (rule 2,
	 * Costo; load_card), and a pair it leaves unused is (0, INT_MIN),
	 * which any resources meet.  And the civilisation's shielded, read
	 * with the card.  Both set with cost_list (data.c). */
	signed char cost_res[2];
	int cost_amount[2];
	int shielded;
	unsigned marks;		/* characteristics, invade, defence */
	char *klass;
	int evento;		/* class EVENTO: one level more priority */
	int tower;		/* an Atempus tower */
	enc_effect *effect;	/* NULL: no effect */
} enc_card;

/* Do the resources `res` cover the card's cost (rule 2, Costo)?  Both
 * pairs are compared, without a branch on how many the cost has: the
 * activation checks after every action make this test over and over. */
static inline int enc_covers(const enc_card *c, const int res[ENC_MAX_RES])
{
	return (res[c->cost_res[0]] >= c->cost_amount[0]) &
	       (res[c->cost_res[1]] >= c->cost_amount[1]);
}

/* ------------------------------------------------------------------ decks */
typedef struct enc_deck_entry {
	int card;
	int count;
	int pile;
	hg_pos pos;
} enc_deck_entry;

typedef struct enc_deck {
	char *id;
	char *name;
	char *file;
	int tower;
	hg_pos pos;
	enc_deck_entry *entries;	/* in file order */
	size_t nentries;
	int pile[ENC_PILES][ENC_MAX_DECK];	/* cards in file order */
	int pile_n[ENC_PILES];
	int total;
} enc_deck;

/* -------------------------------------------------------- the loaded data */
typedef struct enc_verbs enc_verbs;

/* A card listed in enc_pool.by_id: its id's length and two words of its
 * bytes after the first two (data.c, id_words: eight from byte 2 and the
 * last eight, or fewer for a shorter id), so that enc_find_card_n
 * compares a name with the few ids of its first two letters by their
 * lengths and two words each, from one small array, and reads an id
 * itself only to confirm the middle of one longer than 18 bytes. */
typedef struct enc_id_entry {
	uint64_t head, tail;
	unsigned short len;
	short card;
} enc_id_entry;

typedef struct enc_pool {
	enc_resource res[ENC_MAX_RES];
	int nres;
	hg_names *res_names;
	enc_civ *civs;
	size_t nciv, capciv;
	enc_card *cards;
	size_t ncards, capcards;
	hg_names *card_names;	/* ids, names and aliases of cards and towers */
	/* The cards (and towers) by their ids as written, for enc_find_card:
	 * records name a card by its id (herald fmt writes ids), and an exact
	 * id is found by comparing its length and words (enc_id_entry) with
	 * the few ids that begin with the same two letters, cheaper than
	 * card_names' walk.  by_id lists (enc_id_entry.card) the cards whose
	 * id card_names finds as that card, grouped by the first two letters
	 * (a to z); those of pair k (26 * a + b) are by_id[by_id_from[k]] to
	 * by_id[by_id_from[k + 1] - 1].  NULL until enc_pool_finish. */
	enc_id_entry *by_id;
	unsigned short by_id_from[26 * 26 + 1];
	hg_names *civ_names;
	char **files;		/* every file read, for messages */
	size_t nfiles, capfiles;
	hg_provs provs;		/* where each value of those files comes from */
} enc_pool;

struct hg_gdata {
	enc_pool pool;
	enc_deck **decks;	/* bundled decks, then the record's own */
	size_t ndecks, capdecks;
	hg_names *deck_names;	/* bundled decks by id */
	int seat_file[ENC_MAX_SEATS];	/* deck index from Deck<n>File, or -1 */
	enc_verbs *verbs;	/* the reader's index of verbs (notation.c) */
};

/* ------------------------------------------------------------------ state */
typedef enum enc_zone {
	ENC_Z_PILE, ENC_Z_HAND, ENC_Z_STACK, ENC_Z_TOWN, ENC_Z_DISCARD,
	ENC_Z_DUEL		/* revealed and fighting: see war.c */
} enc_zone;

/* A set of a player's card instances, one bit each. */
typedef uint64_t enc_set;
_Static_assert(ENC_MAX_DECK <= 64, "an enc_set holds every instance of a player");

static inline int enc_set_first(enc_set set)	/* set != 0 */
{
#if defined(__GNUC__)
	return __builtin_ctzll(set);
#else
	int i = 0;
	while (!(set & 1)) {
		set >>= 1;
		i++;
	}
	return i;
#endif
}

static inline int enc_set_count(enc_set set)
{
#if defined(__GNUC__)
	return __builtin_popcountll(set);
#else
	int n = 0;
	for (; set; set &= set - 1)
		n++;
	return n;
#endif
}

#define ENC_NO_TOWN (~(enc_set)0)	/* more instances than a deck has */

/* What effects in force do to a player's resources (RESOURCE and DRAIN
 * steps whose source still holds): with the town, all that decides which
 * of its cards are active (rule 2, Costo). */
typedef struct enc_res_effects {
	int gain[ENC_MAX_RES];
	int drain[ENC_MAX_RES];
} enc_res_effects;

/* One physical card of a player: 12 bytes, no padding (the zone scans
 * read many of them). */
typedef struct enc_inst {
	short card;		/* pool index, -1 while unseen (no Seed) */
	short order;		/* position in its pile, stack, hand or town */
	signed char pile;	/* pile it started in */
	signed char zone;
	signed char stack;	/* ENC_Z_STACK, ENC_Z_DUEL: the stack */
	signed char used_seat;	/* effect used: whose turn it was, or -1 */
	/* An unseen card put down as '?', which the replay picked among the
	 * hand's unseen cards: its pile is a guess (state.c, enc_identify). */
	signed char picked;
	unsigned used_turn;	/* ... and which turn */
} enc_inst;

typedef enum enc_stack_state {
	ENC_STACK_FREE, ENC_STACK_USED, ENC_STACK_BLOCKED
} enc_stack_state;

typedef struct enc_stack {
	unsigned char state;
	signed char block_seat;	/* blocked until this seat's next turn */
	unsigned block_turn;
	int war;		/* ENC_STACK_USED: the war it belongs to */
} enc_stack;

/* rests-on.c: notes that the verdict of dg rests on `what` ("cost",
 * "effect", "resources") of pool card `card`, when its file reconstructs
 * it (herald-data(5)); enc_rests_on_town does so for the resources of a
 * seat's tower and town. */
void enc_rests_on(hg_diag *dg, const struct hg_gdata *g, int card, const char *what);
void enc_rests_on_town(hg_diag *dg, const hg_state *s, int seat);

typedef struct enc_player {
	int deck;
	int team;
	int tower;		/* pool index: its own, or the one it shares */
	/* The seat whose tower this player plays with: itself, or the
	 * teammate whose tower it shares (ruling 28).  Only that seat's
	 * resistance and tower_used_* are read (enc_tower_of). */
	int tower_seat;
	int resistance;
	int eliminated;		/* 0, or an ENC_LOST_* reason */
	int ninst;
	enc_inst inst[ENC_MAX_DECK];
	/* The instances in each zone (kept by state.c with inst[].zone) and
	 * the ones each pile started with: zone lists without a scan. */
	enc_set in_zone[ENC_Z_DUEL + 1];
	enc_set from_pile[ENC_PILES];
	/* The instances of each hidden stack (in ENC_Z_STACK with that
	 * inst[].stack), kept by state.c as well. */
	enc_set in_stack[ENC_MAX_STACKS];
	/* enc_activity's memo (activation.c): for the town memo_town and the
	 * effects on resources memo_effects, the active cards and the
	 * resources.  No town is ENC_NO_TOWN. */
	enc_set memo_town, memo_active;
	int memo_neffects;	/* modifiers behind memo_effects; 0: none */
	enc_res_effects memo_effects;
	int memo_res[ENC_MAX_RES];
	/* ... and, of memo_res, what the tower, the gains and the active
	 * cards provide before drains, and what of it shielded cards do. */
	int memo_raw[ENC_MAX_RES], memo_shield[ENC_MAX_RES];
	enc_set settled_duel;	/* in_zone[ENC_Z_DUEL] as enc_settle left it */
	enc_stack stacks[ENC_MAX_STACKS];
	int wear;		/* desgaste, this turn (rule 6.D2) */
	int credits;		/* puts owed for hidden cards taken back (rule 3) */
	signed char tower_used_seat;	/* the tower's effect: as enc_inst.used_* */
	unsigned tower_used_turn;
	int exhausted;		/* armies this side finished in the current war */
	int had_turn;
	unsigned last_start;	/* the turn number of its latest turn */
} enc_player;

enum { ENC_LOST_TOWER = 1, ENC_LOST_PILE = 2 };

typedef struct enc_mod {
	signed char seat;	/* whose cards or resources */
	signed char src_seat;	/* the source card's owner */
	short src_inst;		/* -1: the tower (never expires early) */
	signed char scope;	/* enc_scope; ENC_SCOPE_SOURCE: inst only */
	short inst;
	short value;
	unsigned char marks;
	signed char res;	/* a resource, or -1 */
	short res_amount;
	signed char dur;	/* enc_duration */
	signed char dur_seat;	/* ROUND: until this seat's next turn */
	unsigned dur_turn;
	int war;		/* WAR: the war it lasts for */
} enc_mod;

typedef struct enc_ban {
	signed char seat;
	signed char what;	/* enc_forbid */
	unsigned turn;		/* the turn it applies to; 0: seat's next turn */
} enc_ban;

/* A chosen item of an effect use, resolved to the state's terms. */
typedef enum enc_item_kind {
	ENC_ITEM_CARD,		/* a card name (hand, town) */
	ENC_ITEM_REF,		/* a hidden card: stack and position */
	ENC_ITEM_NUMBER,	/* a pile or amount */
	ENC_ITEM_RESOURCE,
	ENC_ITEM_UNKNOWN	/* '?' */
} enc_item_kind;

typedef struct enc_item {
	signed char kind;
	signed char group;	/* which '/' group it came in */
	signed char stack;	/* REF */
	signed char pos;	/* REF: 1-based, 0 = top */
	short card;		/* CARD: pool index */
	short number;		/* NUMBER, RESOURCE */
	short inst;		/* filled when resolved against the state */
	signed char owner;	/* ... and the seat whose instance it is */
	hg_pos where;
} enc_item;

/* Is v[i] the card drawn from the pile named just before it, in the same
 * group ("use CARD / 1 herrero 2 ?": a draw step's piles, each followed by
 * the card it gives, named or '?')?  Only a draw step's group holds piles,
 * so a card or '?' after a number is one. */
static inline int enc_item_drawn(const enc_item *v, int i)
{
	return i > 0 && v[i - 1].kind == ENC_ITEM_NUMBER && v[i - 1].group == v[i].group &&
	       (v[i].kind == ENC_ITEM_CARD || v[i].kind == ENC_ITEM_UNKNOWN);
}

typedef enum enc_outcome_kind {
	ENC_OUT_NOTHING, ENC_OUT_DISCARD, ENC_OUT_TOWER, ENC_OUT_WEAR
} enc_outcome_kind;

typedef struct enc_outcome {
	signed char kind;
	signed char seat;
	enc_item item;		/* DISCARD */
	short amount;		/* TOWER (signed), WEAR */
	hg_pos where;
} enc_outcome;

typedef enum enc_source_kind {
	ENC_SRC_TOWN, ENC_SRC_TOWER,
	ENC_SRC_ATTACKER	/* a card revealed in the war, of either side */
} enc_source_kind;

/* An effect that has been used: now, or waiting in an exchange. */
typedef struct enc_use {
	signed char seat;
	signed char src;	/* enc_source_kind */
	short inst;		/* ENC_SRC_TOWN, ENC_SRC_ATTACKER */
	short card;
	signed char target;	/* seat, or -1 */
	signed char level;	/* priority (rule 2, El Palo; Clase) */
	signed char evento;
	signed char order;
	enc_item items[ENC_MAX_ITEMS];
	int nitems;
	enc_outcome out[ENC_MAX_OUTCOME];
	int nout;
} enc_use;

/* The window that opens when an effect names another player (rule 2,
 * Efectos): the target may answer before anything resolves. */
typedef struct enc_exchange {
	int active;
	int target;		/* the player answering now */
	/* Those who answered before, waiting for `target` to pass (an
	 * answer aimed at a player lets it answer in turn, ruling 14). */
	int nwaiting;
	signed char waiting[ENC_MAX_PENDING];
	int n;
	enc_use uses[ENC_MAX_PENDING];
} enc_exchange;

typedef enum enc_war_stage {
	ENC_WAR_NONE, ENC_WAR_DECLARED, ENC_WAR_BATTLE, ENC_WAR_INVASION
} enc_war_stage;

typedef enum enc_target {
	ENC_TGT_NONE, ENC_TGT_TOWER, ENC_TGT_TOWN, ENC_TGT_ARMY
} enc_target;

typedef struct enc_war {
	int stage;		/* enc_war_stage */
	int id;			/* counts wars, for durations */
	int att, def;
	int att_army, def_army;	/* stacks, -1 none chosen */
	int att_card, def_card;	/* revealed duel cards, -1 none */
	int att_used, def_used;	/* this war's used armies, -1 none */
	int target;		/* enc_target, invasion */
	int target_inst;	/* ENC_TGT_TOWN: the defending town card */
	int retargeted, forced;
	int again;		/* attack-again pending for att_card */
} enc_war;

typedef enum enc_phase {
	ENC_PH_SETUP, ENC_PH_A, ENC_PH_B, ENC_PH_C, ENC_PH_D, ENC_PH_E
} enc_phase;

typedef struct enc_shared enc_shared;	/* names, seed: shared by clones */

/* The scalars come first and the arrays last, each with its count before
 * it, so that a copy takes only the live part (enc_state_copy). */
struct hg_state {
	const hg_gdata *data;
	enc_shared *sh;
	int nseats;
	int nteams;
	int seeded;
	/* The variants a group chose with tags (herald-encrucijada(7),
	 * TAGS): [Activation "mutual"], the greatest fixed point of ruling
	 * 3; [Objectives ...], the ways to win of rule 4 (ENC_OBJ_*). */
	int activation_mutual;
	unsigned objectives;

	unsigned turn;		/* 0 during set-up, then 1, 2, ... */
	int current;		/* whose turn (or set-up) it is */
	int phase;		/* enc_phase */
	int draws_needed, draws_done;
	int puts;		/* cards put down in phase B */
	int takes, moves;	/* counted for legal()'s bound only */
	int war_done;

	enc_war war;
	int wars;		/* wars so far */
	unsigned seq;		/* orders cards put into the town */

	int over;
	int winner_team;	/* -1: a draw */
	/* Gobernar (rule 4) was looked at with every seat's resources as
	 * enc_player.memo_res holds them now, or more, and the same seats in
	 * the game, and nobody had won: until a memo's resource grows or a
	 * seat falls, it need not be looked at again (victory.c). */
	int governed_checked;
	/* Conquistar and Resistir (rule 4) may have a new loser: a tower's
	 * resistance has changed or a pile has run out since victory.c last
	 * looked. */
	int loss_unchecked;
	/* Some stack may be ENC_STACK_BLOCKED (rule 6.D3): else the start of
	 * a turn need not look for blocks that end (enc_expire_turn_start). */
	int stacks_blocked;
	/* enc_settle found nothing more to change, and the modifiers have not
	 * changed since (enc_mod_add and drop_mods clear it; so must anything
	 * else that writes mods[]): with every town and duel zone as it left
	 * them (enc_player.memo_town, settled_duel) and no duel card, the
	 * next enc_settle has nothing to do (activation.c, nothing_to_settle). */
	int mods_settled;
	/* ... and no town or duel zone has changed since it did (leave_zone
	 * clears it): with mods_settled, every seat's memo_town and
	 * settled_duel still hold, without a look at each seat. */
	int zones_settled;
	char result[64];

	int nmods;
	int nbans;
	enc_player p[ENC_MAX_SEATS];	/* nseats of them */
	enc_mod mods[ENC_MAX_MODS];
	enc_ban bans[ENC_MAX_BANS];
	enc_exchange ex;		/* last: its uses are most of the size */
};

struct enc_shared {
	int refs;
	char **names;		/* player names in seat order */
	size_t nnames;
	char *seed;
	int seed_public;	/* the record reveals its seed (SeedReveal) */
	/* enc_parse's blocks (enc_action_cache_new): no part of the
	 * position, the only thing parse() writes. */
	hg_action_cache *actions;
	/* With a Seed, every instance's card is dealt at set-up and never
	 * changes (enc_identify names only unseen ones), in every copy of
	 * the position: so, by seat and card (seat * pool.ncards + card),
	 * the instances of that card, for the hand and town finds without a
	 * look at each card of the zone (enc_card_copies).  NULL without a
	 * Seed. */
	enc_set *copies;
};

/* ---------------------------------------------------------------- actions */
typedef enum enc_act_kind {
	ENC_A_SETUP, ENC_A_DRAW, ENC_A_PUT, ENC_A_SHOW, ENC_A_TAKE, ENC_A_MOVE,
	ENC_A_USE, ENC_A_PASS, ENC_A_WAR, ENC_A_DEFEND, ENC_A_YIELD, ENC_A_ARMY,
	ENC_A_REVEAL, ENC_A_FIGHT, ENC_A_TARGET, ENC_A_RETARGET, ENC_A_FORCE,
	ENC_A_REGROUP, ENC_A_END
} enc_act_kind;

struct hg_action {
	enc_act_kind kind;
	int seat;
	hg_pos pos;		/* the first token of the body */
	hg_pos seat_pos;
	int pile;		/* SETUP, DRAW */
	int card;		/* DRAW, PUT, SHOW, TAKE, REVEAL, TARGET, RETARGET, FORCE:
				   pool index, -1 none, -2 '?' */
	hg_pos card_pos;
	int visible;		/* PUT */
	enc_item ref, ref2;	/* PUT (ref2: where), SHOW, TAKE, MOVE, FORCE */
	int has_ref;
	int other;		/* WAR, USE: a seat, -1 none */
	hg_pos other_pos;
	int tgt;		/* TARGET: enc_target */
	int army;		/* ARMY, TARGET army: stack */
	int src;		/* USE: enc_source_kind guess: tower or a card */
	int src_card;		/* USE: pool index */
	hg_pos src_pos;
	/* USE, SETUP: the chosen items and the stated outcome.  They live in
	 * the action's own allocation, after it, with room for the most a use
	 * takes; only what is counted is ever written (enc_parse) or the room
	 * is cleared once (enc_action_new). */
	enc_item *items;
	int nitems;
	int ngroups;
	enc_outcome *out;
	int nout;
	int has_outcome;
	/* enc_parse's actions: the spare-action cache of the game it was
	 * parsed in, which the action holds a reference to and is given back
	 * to when freed (action-cache.h); NULL for enc_action_new's. */
	hg_action_cache *home;
};

/* ------------------------------------------------------------ data.c */
void enc_pool_init(enc_pool *pool);
void enc_pool_free(enc_pool *pool);
/* Reads one card file (resources, civilisations, cards, towers); 0 or -1. */
int enc_pool_load_file(enc_pool *pool, const char *path, hg_diags *d);
/* The same from a loaded document, which it frees. */
int enc_pool_load_doc(enc_pool *pool, hg_ydoc *doc, hg_diags *d);
extern const char *const enc_card_file_keys[];	/* a card file's top-level keys */
/* Checks what only the whole pool can tell (at least one tower ...). */
int enc_pool_finish(enc_pool *pool, hg_pos where, hg_diags *d);
/* Loads the bundled card files found along the data path. */
int enc_pool_load_bundled(enc_pool *pool, const hg_datapath *path, hg_diags *d);
int enc_find_card(const enc_pool *pool, const char *name);
/* The same for a name of `len` bytes (strlen(name)), which most records'
 * tokens know already (hg_atok.len). */
int enc_find_card_n(const enc_pool *pool, const char *name, size_t len);
/* enc_find_card without enc_pool.by_id, for the tests. */
int hg_enc_find_card_by_names(const enc_pool *pool, const char *name);
int hg_enc_find_card(const enc_pool *pool, const char *name);
int enc_find_res(const enc_pool *pool, const char *name);
void enc_suggest_cards(const enc_pool *pool, const char *name, hg_diag *dg);
extern const char *const enc_suit_names[];
extern const char *const enc_bundled_card_files[];
extern const char *const enc_bundled_deck_files[];
int enc_is_reserved_name(const char *name);
/* [volador, defence, ...] into mark bits. */
int enc_load_marks(const hg_ynode *list, unsigned *marks, hg_diags *d);

/* ------------------------------------------------------------ effect.c */
enc_effect *enc_effect_parse(const enc_pool *pool, const hg_ynode *n, hg_diags *d);
void enc_effect_free(enc_effect *e);
const char *enc_step_name(enc_step_kind k);

/* ------------------------------------------------------------ deck.c */
/* Loads and checks a deck file against the pool.  `shown` is the name the
 * diagnostics give the file.  NULL after diagnostics. */
enc_deck *enc_deck_load(const enc_pool *pool, const char *path, hg_diags *d);
/* The same from a loaded document, which it frees. */
enc_deck *enc_deck_load_doc(const enc_pool *pool, hg_ydoc *doc, hg_diags *d);
extern const char *const enc_deck_file_keys[];	/* a deck file's top-level keys */
void enc_deck_free(enc_deck *deck);

/* ------------------------------------------------------------ state.c */
hg_state *enc_setup(const hg_gdata *data, const hg_game_record *rec, hg_diags *d);
hg_state *enc_clone(const hg_state *s);
void enc_free_state(hg_state *s);
void enc_state_copy(hg_state *dst, const hg_state *src);
/* A scratch copy (a trial, an undo point) that borrows src's shared part:
 * it must not outlive the state it came from and is never freed; copying
 * it back into that state is the undo. */
void enc_state_scratch(hg_state *dst, const hg_state *src);
/* Drops a reference to the shared part, freeing it with the last. */
void enc_shared_free(enc_shared *sh);
static inline void enc_shared_unref(enc_shared *sh)
{
	if (--sh->refs <= 0)
		enc_shared_free(sh);
}
const char *enc_seat_name(int seat);	/* "P1" ... */
/* A seat is written P1 ... P6 or as the player's name: the first, as herald
 * writes every seat, is read here without a call (once for every action). */
int enc_find_seat_named(const hg_state *s, const char *word);
static inline int enc_find_seat(const hg_state *s, const char *word)
{
	if (word[0] == 'P' && word[1] >= '1' && word[1] < '1' + s->nseats && !word[2])
		return word[1] - '1';
	return enc_find_seat_named(s, word);
}
/* The seat's instances of `card` (enc_shared.copies); callers look only
 * when the copies are known (s->sh->copies). */
static inline enc_set enc_card_copies(const hg_state *s, int seat, int card)
{
	size_t ncards = s->data->pool.ncards;
	return card >= 0 && (size_t)card < ncards ? s->sh->copies[(size_t)seat * ncards + (size_t)card] : 0;
}
const enc_card *enc_card_of(const hg_state *s, int seat, int inst);
const char *enc_card_id(const hg_state *s, int card);
/* Zone helpers: the instances of a zone in order; return the count. */
int enc_stack_list(const hg_state *s, int seat, int stack, int *out);
int enc_pile_list(const hg_state *s, int seat, int pile, int *out);
/* The top card of a pile, enc_pile_list's first, without the sort; -1
 * when the pile is empty. */
int enc_pile_top(const hg_state *s, int seat, int pile);
int enc_zone_list(const hg_state *s, int seat, enc_zone zone, int *out);
/* Of enc_zone_list's instances those that hold `card` (-1: the unseen), in
 * the same order, without sorting the whole zone; exported for the tests. */
int enc_zone_cards(const hg_state *s, int seat, enc_zone zone, int card, int *out);
int hg_enc_zone_cards(const hg_state *s, int seat, int zone, int card, int *out);
/* enc_stack_at, for the tests. */
int hg_enc_stack_at(const hg_state *s, int seat, int stack, int pos);
int enc_zone_count(const hg_state *s, int seat, enc_zone zone);
/* The player holding the tower `seat` plays with (ruling 28). */
static inline enc_player *enc_tower_of(hg_state *s, int seat)
{
	return &s->p[s->p[seat].tower_seat];
}
static inline const enc_player *enc_tower_of_c(const hg_state *s, int seat)
{
	return &s->p[s->p[seat].tower_seat];
}
int enc_stack_count(const hg_state *s, int seat, int stack);
int enc_free_stack(const hg_state *s, int seat);
/* Inserts inst into stack at 1-based position (0 = top, -1 = bottom). */
void enc_stack_insert(hg_state *s, int seat, int inst, int stack, int pos);
/* The instance at a stack position (1-based; 0 = top), or -1. */
int enc_stack_at(const hg_state *s, int seat, int stack, int pos);
void enc_to_zone(hg_state *s, int seat, int inst, enc_zone zone);
/* Names an unseen card (rule: herald-encrucijada(7), HIDDEN CARDS): 0, or
 * -1 when it cannot be that card (diagnosed).  Reports HG_UNVERIFIED. */
int enc_identify(hg_state *s, int seat, int inst, int card, hg_pos pos, hg_diags *d);
/* The groups of a use whose step draws (bit g: group g), from its source's
 * effect as the position has it; 0 when none, or no such source. */
unsigned enc_use_draw_groups(const hg_state *s, const hg_action *a);
/* A card of the hand by name (-2 = '?'): the instance, or -1. */
int enc_hand_find(const hg_state *s, int seat, int card);
int enc_town_find(const hg_state *s, int seat, int card, int usable_only);
/* enc_hand_find and enc_town_find, for the tests. */
int hg_enc_hand_find(const hg_state *s, int seat, int card);
int hg_enc_town_find(const hg_state *s, int seat, int card, int usable_only);
int enc_teammates(const hg_state *s, int a, int b);
int enc_next_seat(const hg_state *s, int seat);

/* ------------------------------------------------------------ activation.c */
void enc_resources(const hg_state *s, int seat, int out[ENC_MAX_RES]);
/* The seat's active town cards, and its resources into res[]. */
enc_set enc_activity(const hg_state *s, int seat, int res[ENC_MAX_RES]);
/* The same, exported for the unit tests. */
uint64_t hg_enc_activity(const hg_state *s, int seat, int res[ENC_MAX_RES]);
/* Where enc_activity starts for the seat, for the tests: 0 the memo holds;
 * 1 from the memo; 2 from the memo, made under other effects; 3 from
 * nothing, the memo's active cards the only ones that may be; 4 from
 * nothing. */
int hg_enc_activity_start(const hg_state *s, int seat);
/* enc_activity's active cards alone, without the resources. */
enc_set enc_active_set(const hg_state *s, int seat);
int enc_is_active(const hg_state *s, int seat, int inst);
int enc_can_activate(const hg_state *s, int seat, int card);
int enc_value(const hg_state *s, int seat, int inst);
unsigned enc_marks(const hg_state *s, int seat, int inst);
/* After every change: deactivated attackers go home, durations whose source
 * is gone end, then the victory checks run. */
void enc_settle(hg_state *s);
/* For the unit tests: would enc_settle skip its work (nothing_to_settle),
 * and enc_settle with that shortcut or without it. */
int hg_enc_settle_skips(const hg_state *s);
/* Which way enc_settle goes: 0 its loop, 1 nothing to settle, 2 only the
 * grown towns (towns_only_grew); for the tests. */
int hg_enc_settle_path(const hg_state *s);
void hg_enc_settle_with(hg_state *s, int may_skip);
void enc_mod_add(hg_state *s, const enc_mod *m);
/* End-of-turn and start-of-turn expiry. */
void enc_expire_turn_end(hg_state *s);
void enc_expire_turn_start(hg_state *s, int seat);
void enc_expire_war_end(hg_state *s, int war);
int enc_round_over(const hg_state *s, int seat, unsigned turn);
int enc_banned(const hg_state *s, int seat, enc_forbid what);
int enc_effect_used(const hg_state *s, int seat, int inst);
int hg_enc_effect_used(const hg_state *s, int seat, int inst);	/* for the tests */

/* ------------------------------------------------------------ effect-run.c */
int enc_apply_use(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_pass(hg_state *s, const hg_action *a, hg_diags *d);
/* The same, with (may_skip 1) or without (0) the shortcut that an effect
 * which cannot fail after a change is tried and resolved with no copy of
 * the state: for the tests, which compare the two. */
int hg_enc_apply_use_with(hg_state *s, const hg_action *a, hg_diags *d, int may_skip);
int hg_enc_apply_pass_with(hg_state *s, const hg_action *a, hg_diags *d, int may_skip);
int enc_priority(const enc_card *c);
/* Can `seat` use effects now, and from which sources?  For legal(). */
int enc_use_allowed(const hg_state *s, int seat);
/* Fills a representative use of a source for legal(); 0 when none. */
int enc_sample_use(const hg_state *s, int seat, int src, int inst, int target,
		   hg_action *a);

/* ------------------------------------------------------------ turn.c */
int enc_apply_setup(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_draw(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_put(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_show(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_take(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_move(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_end(hg_state *s, const hg_action *a, hg_diags *d);
/* Draws the top card of a pile into the hand: the instance. */
int enc_draw_card(hg_state *s, int seat, int pile);
void enc_start_turn(hg_state *s, int seat);
/* May `seat` act at all now (its turn, its war, its answer)? */
int enc_may_act(const hg_state *s, int seat);
/* May `seat` handle its hidden cards now (show, take, credit puts)? */
int enc_may_handle(const hg_state *s, int seat);
int enc_draw_done(const hg_state *s);
/* Resolves a hidden card reference (stack, position) to an instance. */
int enc_ref_inst(const hg_state *s, int seat, const enc_item *ref);
int enc_stack_in_battle(const hg_state *s, int seat, int stack);

/* ------------------------------------------------------------ war.c */
int enc_apply_war(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_defend(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_yield(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_army(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_reveal(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_fight(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_target(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_retarget(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_force(hg_state *s, const hg_action *a, hg_diags *d);
int enc_apply_regroup(hg_state *s, const hg_action *a, hg_diags *d);
int enc_war_can_declare(const hg_state *s, int seat, int def);
/* Who the war waits for and with what (for legal(), to_move()). */
int enc_war_waiting(const hg_state *s);
/* The seat's card revealed in the war now (either side), or -1. */
int enc_duel_card(const hg_state *s, int seat);
/* An army emptied by its owner has run out (wear, the next army). */
void enc_war_check_armies(hg_state *s);
/* A duel card returns to the hand (no longer active). */
void enc_duel_deactivated(hg_state *s, int seat);
void enc_war_end(hg_state *s);
void enc_army_available(const hg_state *s, int seat, int stacks[ENC_MAX_STACKS], int *n);

/* ------------------------------------------------------------ victory.c */
/* The victory checks; res_now, when not NULL, holds each seat's resources
 * in the state as it stands (enc_settle has just worked them out). */
void enc_check_victory(hg_state *s, const int *const *res_now);
void hg_enc_check_victory(hg_state *s, const int *const *res_now);	/* for the tests */
void enc_eliminate(hg_state *s, int seat, int why);
int enc_team_threshold(const hg_state *s, int team);

static inline int enc_alive(const hg_state *s, int seat)
{
	return !s->p[seat].eliminated;
}

/* ------------------------------------------------------------ notation.c */
enc_verbs *enc_verbs_new(void);
void enc_verbs_free(enc_verbs *vs);
hg_action *enc_parse(const hg_state *s, const hg_action_text *t, hg_diags *d);
/* Is the word of a use's choices a stack ref ("b", "b.3")?  For the tests. */
int hg_enc_is_ref_word(const char *w);
void enc_format(const hg_state *s, const hg_action *a, hg_buf *seat, hg_buf *body);
/* Seat views (view.c; hg_game_class's view members). */
int enc_seat_find(const hg_state *s, const char *name);
const char *enc_view_seat_name(const hg_state *s, unsigned seat);
void enc_view_action(const hg_state *before, const hg_state *after, const hg_action *a,
		     unsigned seat, hg_buf *seat_out, hg_buf *body);
int enc_names_chance(const hg_state *s, const hg_action *a);
/* Position facts (facts.c; hg_game_class's facts and fact). */
extern const char *const enc_facts[];
int enc_fact(const hg_state *s, const char *name, const char *arg, hg_buf *out);
void enc_format_item(const hg_state *s, const enc_item *it, hg_buf *b);
void enc_format_ref(const enc_item *ref, hg_buf *b);
/* An action with room for ENC_MAX_ITEMS items and ENC_MAX_OUTCOME parts. */
hg_action *enc_action_new(enc_act_kind kind, int seat);
/* The bytes of an action with room for the most items and outcome parts
 * (enc_action_new's, and every block of the spare-action cache); an
 * action of that size set as enc_action_new sets its own; a malloc'd copy
 * of one, NULL short of memory inside a unit of work that reports it. */
size_t enc_action_size(void);
void enc_action_reset(hg_action *a, enc_act_kind kind, int seat);
hg_action *enc_action_try_copy(const hg_action *a);
void enc_free_action(hg_action *a);
/* The cache of enc_parse's blocks, each with room for the most items and
 * outcome parts a use takes (enc_shared.actions). */
hg_action_cache *enc_action_cache_new(void);

/* ------------------------------------------------------------ render.c */
void enc_render(const hg_state *s, hg_buf *out);
/* The position as JSON (position-json.c). */
struct json_t *hg_enc_position_json(const hg_state *s);

/* ------------------------------------------------------------ legal.c */
void enc_legal(const hg_state *s, hg_action_list *out);
int enc_gen_tags(const hg_gdata *data, hg_prng *r, unsigned players,
		 const char *variant, hg_game_record *rec, hg_diags *d);

/* ------------------------------------------------------------ engine.c */
int enc_apply(hg_state *s, const hg_action *a, hg_diags *d);
const char *enc_result(const hg_state *s);
unsigned enc_turn(const hg_state *s);
const char *enc_to_move(const hg_state *s);
/* master.c: remote play */
void enc_chance_fill(const hg_state *s, const char *seat, const char *body, hg_buf *out);
int enc_actor(const hg_state *s);

#endif
