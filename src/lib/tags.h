/* tags.h - the rules on a game's tag pairs (herald-notation(5), rules T2
 * to T4): the Date's form, the players' names and the required tags
 * (internal).  The parser reads the pairs; these functions judge them and
 * report through the parser's lexer, which counts the game's errors. */
#ifndef HERALD_TAGS_H
#define HERALD_TAGS_H

#include "lexer.h"
#include "tagset.h"

/* The names of a game's malformed tag pairs: no "missing tag" is said of
 * them, nor of a tag that names them. */
typedef struct hg_bad_tags {
	char **names;
	size_t n;
} hg_bad_tags;

void hg_bad_tags_add(hg_bad_tags *b, const char *name);
int hg_bad_tags_has(const hg_bad_tags *b, const char *name);
void hg_bad_tags_clear(hg_bad_tags *b);

/* The Date tag (rule T3): YYYY.MM.DD with '?' for unknown parts; a small
 * slip in the form is a warning that suggests the canonical form. */
void hg_tags_check_date(hg_lexer *lx, const hg_tag *tag);

/* Once the tag section of g is over: the required tags (rule T2) and the
 * players' names (rule T4).  `set` holds g's tag names; `over` says that
 * tag pairs past the limit were dropped (any missing tag may be among
 * them). */
void hg_tags_check_section(hg_lexer *lx, const hg_game_record *g, const hg_tagset *set,
			   const hg_bad_tags *bad, int over);

#endif
