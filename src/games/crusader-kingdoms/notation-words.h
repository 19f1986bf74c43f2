/* notation-words.h - Crusader Kingdoms: the words of the action syntax
 * (grammar/crusader-kingdoms.ebnf: the "kw ..." rules, "side", "mod",
 * "bonus" and "list keyword"), the one table of them.  The reader
 * (notation.c) asks it for every keyword, the writer (notation-write.c)
 * writes each word's first spelling, and the data loader (data.c) keeps
 * the words that end a list out of every name.
 *
 * Each spelling is in small letters and without accents: a keyword
 * matches case-insensitively and without regard to accents
 * (herald-notation(5), NAMES), as hg_name_eq compares. */
#ifndef HG_CK_NOTATION_WORDS_H
#define HG_CK_NOTATION_WORDS_H

/* X(NAME, ENDS_LIST, SPELLING, SPELLING, SPELLING) for each word: its
 * spellings, the first English (the one the writer writes), "" for none;
 * ENDS_LIST: a list of names stops at it, so no name may be it (the
 * grammar's "list keyword").  The reader expands it into compares of
 * constant strings, the enum and the table below come from it too. */
#define CK_WORD_LIST(X) \
	/* the actions' first words */ \
	X(DRAW, 0, "draw", "robar", "") \
	X(ATTACK, 1, "attack", "atacar", "") \
	X(INCURSION, 0, "incursion", "", "")	/* with or without its accent */ \
	X(PLAY, 0, "play", "jugar", "") \
	X(DISCARD, 0, "discard", "descartar", "") \
	X(PASS, 0, "pass", "pasar", "") \
	X(REVEAL, 0, "reveal", "revelar", "") \
	/* the clauses' */ \
	X(FROM, 1, "from", "desde", "") \
	X(WITH, 1, "with", "con", "") \
	X(TURN, 1, "turn", "gira", "") \
	X(VS, 1, "vs", "contra", "") \
	X(WON, 0, "won", "gana", "") \
	X(LOST, 0, "lost", "pierde", "") \
	X(CASTLE, 1, "castle", "castillo", "") \
	X(ON, 1, "on", "sobre", "") \
	X(AT, 1, "at", "en", "") \
	X(DRAWS, 1, "draws", "roba", "") \
	X(TAKES, 1, "takes", "toma", "") \
	X(DISCARDS, 1, "discards", "descarta", "") \
	X(END, 1, "end", "fin", "") \
	X(ARMY, 1, "army", "ejercito", "")	/* with or without its accent */ \
	X(RESPONSE, 1, "response", "respuesta", "") \
	X(DISCARDED, 1, "discarded", "descartada", "") \
	X(MOD, 1, "mod", "", "") \
	X(BONUS, 0, "bonus", "", "") \
	/* the sides a response supports */ \
	X(SIDE_ATTACK, 1, "attack", "ataque", "") \
	X(SIDE_DEFENCE, 0, "defence", "defense", "defensa")

#define CK_WORD_ENUM(name, ends, a, b, c) CK_W_##name,
typedef enum ck_word {
	CK_WORD_LIST(CK_WORD_ENUM)
	CK_NWORDS
} ck_word;
#undef CK_WORD_ENUM

#define CK_WORD_SPELLINGS 3

typedef struct ck_word_spellings {
	const char *spelling[CK_WORD_SPELLINGS];	/* "" for none */
	int ends_list;
} ck_word_spellings;

#define CK_WORD_ROW(name, ends, a, b, c) [CK_W_##name] = { { a, b, c }, ends },
static const ck_word_spellings ck_words[CK_NWORDS] = {
	CK_WORD_LIST(CK_WORD_ROW)
};
#undef CK_WORD_ROW

#endif
