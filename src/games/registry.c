/* registry.c - the one place that lists the games herald referees. */
#include "config.h"

#include <stddef.h>

#include "herald-engine.h"

extern const hg_game_class hg_koc_class;	/* kingdoms-of-crusaders/engine.c */
extern const hg_game_class hg_ck_class;	/* crusader-kingdoms/engine.c */
extern const hg_game_class hg_enc_class;	/* encrucijada/engine.c */

static const hg_game_class *const games[] = {
	&hg_koc_class,
	&hg_ck_class,
	&hg_enc_class,
	NULL,
};

const hg_game_class *const *hg_games(void)
{
	return games;
}

const hg_game_class *hg_game_find(const char *name)
{
	for (size_t i = 0; games[i]; i++) {
		/* the id, or the title as printed on the box: [Game "Crusader
		 * Kingdoms"] */
		if (hg_name_eq(games[i]->id, name) ||
		    (games[i]->title && hg_name_eq(games[i]->title, name)))
			return games[i];
		for (size_t k = 0; games[i]->aliases && games[i]->aliases[k]; k++)
			if (hg_name_eq(games[i]->aliases[k], name))
				return games[i];
	}
	return NULL;
}
