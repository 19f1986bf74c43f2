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

typedef enum ck_word {
	/* the actions' first words */
	CK_W_DRAW, CK_W_ATTACK, CK_W_INCURSION, CK_W_PLAY, CK_W_DISCARD, CK_W_PASS, CK_W_REVEAL,
	/* the clauses' */
	CK_W_FROM, CK_W_WITH, CK_W_TURN, CK_W_VS, CK_W_WON, CK_W_LOST, CK_W_CASTLE, CK_W_ON,
	CK_W_AT, CK_W_DRAWS, CK_W_TAKES, CK_W_DISCARDS, CK_W_END, CK_W_ARMY, CK_W_RESPONSE,
	CK_W_DISCARDED, CK_W_MOD, CK_W_BONUS,
	/* the sides a response supports */
	CK_W_SIDE_ATTACK, CK_W_SIDE_DEFENCE,
	CK_NWORDS
} ck_word;

#define CK_WORD_SPELLINGS 3

typedef struct ck_word_spellings {
	const char *spelling[CK_WORD_SPELLINGS];	/* the first is English,
							   the one the writer
							   writes; NULL after
							   the last */
	unsigned char len[CK_WORD_SPELLINGS];
	unsigned char ends_list;	/* a list of names stops at it, so no
					   name may be it (list keyword) */
} ck_word_spellings;

#define CK_SPELL1(a) { a, NULL, NULL }, { sizeof a - 1, 0, 0 }
#define CK_SPELL2(a, b) { a, b, NULL }, { sizeof a - 1, sizeof b - 1, 0 }
#define CK_SPELL3(a, b, c) { a, b, c }, { sizeof a - 1, sizeof b - 1, sizeof c - 1 }

/* Static, so that a word asked by its constant number is compared with
 * its spellings' lengths and bytes inline. */
static const ck_word_spellings ck_words[CK_NWORDS] = {
	[CK_W_DRAW] = { CK_SPELL2("draw", "robar"), 0 },
	[CK_W_ATTACK] = { CK_SPELL2("attack", "atacar"), 1 },
	[CK_W_INCURSION] = { CK_SPELL1("incursion"), 0 },	/* with or without its accent */
	[CK_W_PLAY] = { CK_SPELL2("play", "jugar"), 0 },
	[CK_W_DISCARD] = { CK_SPELL2("discard", "descartar"), 0 },
	[CK_W_PASS] = { CK_SPELL2("pass", "pasar"), 0 },
	[CK_W_REVEAL] = { CK_SPELL2("reveal", "revelar"), 0 },
	[CK_W_FROM] = { CK_SPELL2("from", "desde"), 1 },
	[CK_W_WITH] = { CK_SPELL2("with", "con"), 1 },
	[CK_W_TURN] = { CK_SPELL2("turn", "gira"), 1 },
	[CK_W_VS] = { CK_SPELL2("vs", "contra"), 1 },
	[CK_W_WON] = { CK_SPELL2("won", "gana"), 0 },
	[CK_W_LOST] = { CK_SPELL2("lost", "pierde"), 0 },
	[CK_W_CASTLE] = { CK_SPELL2("castle", "castillo"), 1 },
	[CK_W_ON] = { CK_SPELL2("on", "sobre"), 1 },
	[CK_W_AT] = { CK_SPELL2("at", "en"), 1 },
	[CK_W_DRAWS] = { CK_SPELL2("draws", "roba"), 1 },
	[CK_W_TAKES] = { CK_SPELL2("takes", "toma"), 1 },
	[CK_W_DISCARDS] = { CK_SPELL2("discards", "descarta"), 1 },
	[CK_W_END] = { CK_SPELL2("end", "fin"), 1 },
	[CK_W_ARMY] = { CK_SPELL2("army", "ejercito"), 1 },	/* with or without its accent */
	[CK_W_RESPONSE] = { CK_SPELL2("response", "respuesta"), 1 },
	[CK_W_DISCARDED] = { CK_SPELL2("discarded", "descartada"), 1 },
	[CK_W_MOD] = { CK_SPELL1("mod"), 1 },
	[CK_W_BONUS] = { CK_SPELL1("bonus"), 0 },
	[CK_W_SIDE_ATTACK] = { CK_SPELL2("attack", "ataque"), 1 },
	[CK_W_SIDE_DEFENCE] = { CK_SPELL3("defence", "defense", "defensa"), 0 },
};

#undef CK_SPELL1
#undef CK_SPELL2
#undef CK_SPELL3

#endif
