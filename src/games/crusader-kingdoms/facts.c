/* facts.c - Crusader Kingdoms' position facts, for `herald select
 * --position` (herald-select(1), POSITION FACTS): an area's owner, a
 * faction's card bonus and the areas it holds. */
#include "config.h"

#include <string.h>

#include "ck.h"

const char *const ck_facts[] = {
	"owner AREA: the faction that owns the area, or independent",
	"bonus FACTION: the faction's card bonus (rule 6)",
	"areas FACTION: the areas the faction owns",
	NULL
};

/* The faction `name` names (its id or name), or -1. */
static int faction_of(const hg_state *s, const char *name)
{
	for (int f = 0; f < s->nsides; f++)
		if (hg_name_eq(name, s->sc->factions[f].id) ||
		    (s->sc->factions[f].name && hg_name_eq(name, s->sc->factions[f].name)))
			return f;
	return -1;
}

int ck_fact(const hg_state *s, const char *name, const char *arg, hg_buf *out)
{
	if (strcmp(name, "owner") == 0) {
		int a = hg_names_find(s->map->names, arg);
		if (a < 0 || a >= s->map->nareas)
			return -1;
		int o = s->owner[a];
		hg_buf_puts(out, o >= 0 ? s->sc->factions[o].id : "independent");
		return 0;
	}
	int f = faction_of(s, arg);
	if (f < 0)
		return -1;
	if (strcmp(name, "bonus") == 0) {
		hg_buf_printf(out, "%d", s->p[f].bonus);
		return 0;
	}
	if (strcmp(name, "areas") == 0) {
		hg_buf_printf(out, "%d", __builtin_popcountll(s->held[f]));
		return 0;
	}
	return -1;
}
