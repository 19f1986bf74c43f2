/* position-json.c - a Crusader Kingdoms position as JSON, for the replay's
 * JSON and its page: what render.c shows, as data (shape in
 * grammar/herald-replay.schema.json, "ck-position").  The map's drawing
 * coordinates are not here: the page reads them from data/ (they are not
 * a part of the position). */
#include "config.h"

#include <jansson.h>

#include "ck.h"

static const char *phase_name(ck_phase p)
{
	return p == CK_PHASE_DRAW ? "draw" : p == CK_PHASE_ROUNDS ? "rounds" : "over";
}

static json_t *areas_json(const hg_state *s)
{
	json_t *areas = json_array();
	for (int a = 0; a < s->map->nareas; a++) {
		const ck_area *ar = &s->map->areas[a];
		int o = s->owner[a];
		/* 8.1: the scripted side's areas have no token until a +1 */
		const char *castle = o < 0 ? "none" : s->plus1[a] ? "+1" :
				     ck_scripted(s, o) ? "no token" : "regular";
		json_t *borders = json_array();
		for (int b = 0; b < s->map->nareas; b++)
			if (ck_borders(s, a, b))
				json_array_append_new(borders, json_string(s->map->areas[b].id));
		json_t *j = json_pack("{s:s, s:s?, s:i, s:s?, s:s, s:o}", "id", ar->id,
				      "name", ar->name, "shield", ar->defence,
				      "owner", o >= 0 ? s->sc->factions[o].id : NULL,
				      "castle", castle, "borders", borders);
		if (ar->number > 0) {
			json_object_set_new(j, "number", json_integer(ar->number));
			json_object_set_new(j, "points", json_integer(ar->points));
		}
		json_array_append_new(areas, j);
	}
	return areas;
}

/* The cards the record shows in a hand, and how many it does not. */
static json_t *hand_json(const hg_state *s, const ck_hand *h)
{
	json_t *cards = json_array();
	int listed = 0;
	for (int r = 0; r < CK_NRELIGIONS; r++)
		for (int c = 0; c < s->data->decks[r].ncards; c++)
			for (int n = ck_hand_sure(h, r, c); n > 0; n--, listed++)
				json_array_append_new(cards, json_string(s->data->decks[r].cards[c].id));
	return json_pack("{s:i, s:o, s:i}", "size", h->size, "cards", cards, "unknown",
			 h->size > listed ? h->size - listed : 0);
}

static json_t *factions_json(const hg_state *s)
{
	json_t *factions = json_array();
	for (int f = 0; f < s->nsides; f++) {
		const ck_faction *fa = &s->sc->factions[f];
		json_t *j = json_pack("{s:s, s:s?, s:s?, s:s, s:b, s:i, s:i, s:i}", "id", fa->id,
				      "name", fa->name, "colour", fa->colour,
				      "religion", ck_religion_name(fa->religion),
				      "player", fa->player, "bonus", s->p[f].bonus,
				      "castles_on_map", hg_ck_castles_on_map(s, f),
				      "castles", fa->castles);
		if (fa->player) {
			json_object_set_new(j, "hand", hand_json(s, &s->p[f].hand));
			json_object_set_new(j, "passed", json_boolean(s->sc->final_pass &&
							s->phase == CK_PHASE_ROUNDS &&
							((s->passed >> f) & 1)));
		}
		json_array_append_new(factions, j);
	}
	return factions;
}

static json_t *piles_json(const hg_state *s)
{
	json_t *decks = json_array();
	for (int r = 0; r < CK_NRELIGIONS; r++)
		json_array_append_new(decks, json_pack("{s:s, s:i, s:i}", "id", s->data->decks[r].id,
						       "to_draw", s->pile[r].n,
						       "discarded", s->pile[r].ndiscard));
	return decks;
}

static json_t *faceup_json(const hg_state *s)
{
	json_t *up = json_array();
	for (int i = 0; i < s->nfaceup; i++) {
		const ck_faceup *f = &s->faceup[i];
		json_array_append_new(up, json_pack("{s:s, s:s, s:s?}",
						    "card", ck_card_at(s, f->religion, f->card)->id,
						    "owner", s->sc->factions[f->owner].id,
						    "target", f->target >= 0 ?
						    s->sc->factions[f->target].id : NULL));
	}
	return up;
}

json_t *hg_ck_position_json(const hg_state *s)
{
	int f = ck_seat_to_act(s);
	json_t *j = json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:s, s:s?, s:s?, s:o, s:o, s:o, s:o}",
			      "game", "crusader-kingdoms", "scenario", s->sc->id,
			      "map", s->map->id, "turn", s->turn, "turns", s->sc->turns,
			      "round", s->round + 1, "phase", phase_name(s->phase),
			      "to_act", f >= 0 ? s->sc->factions[f].id : NULL,
			      "result", s->phase == CK_PHASE_OVER ? s->result : NULL,
			      "areas", areas_json(s), "factions", factions_json(s),
			      "decks", piles_json(s), "face_up", faceup_json(s));
	if (j && s->sc->nlevels)
		json_object_set_new(j, "victory_points", json_integer(hg_ck_victory_points(s)));
	return j;
}
