/* master.c - remote play of The Kingdoms of Crusaders (herald-move(1)):
 * the seats and what herald writes for them.  A deal and a draw are wholly
 * chance: herald makes them from the seed; the seat writes only its
 * placements and its claims. */
#include "config.h"

#include <string.h>

#include "koc.h"

static int starts_with_word(const char *body, const char *word)
{
	size_t n = strlen(word);
	return strncmp(body, word, n) == 0 && (body[n] == ' ' || body[n] == '\0');
}

size_t hg_koc_chance_split(const hg_state *s, const char *seat, const char *body)
{
	(void)s;
	(void)seat;
	if (starts_with_word(body, "deal") || starts_with_word(body, "draw"))
		return 0;
	return strlen(body);
}
