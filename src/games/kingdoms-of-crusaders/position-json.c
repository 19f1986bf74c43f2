/* position-json.c - a position of The Kingdoms of Crusaders as JSON, for
 * the replay's JSON and its page: what render.c shows, as data (shape in
 * grammar/herald-replay.schema.json, "koc-position"). */
#include "config.h"

#include <jansson.h>

#include "koc.h"

static json_t *card_json(const hg_koc_cards *cards, unsigned c)
{
	json_t *symbols = json_array();
	for (unsigned k = 0; k < KOC_NKINDS; k++)
		if (cards->mask[c] & (1u << k))
			json_array_append_new(symbols, json_string(hg_koc_kind_names[k]));
	return json_pack("{s:s, s:o}", "id", cards->ids[c], "symbols", symbols);
}

static json_t *kinds_json(unsigned mask)
{
	json_t *a = json_array();
	for (unsigned k = 0; k < KOC_NKINDS; k++)
		if (mask & (1u << k))
			json_array_append_new(a, json_string(hg_koc_kind_names[k]));
	return a;
}

/* The squads a sector's cards form ('Armies and domination'). */
static json_t *army_json(const hg_state *s, unsigned p, unsigned k)
{
	hg_koc_key key = hg_koc_sector_key(s, p, k);
	return json_pack("{s:b, s:o, s:o, s:o, s:o}",
			 "complete", s->nsector[p][k] == KOC_ARMY,
			 "regiments", kinds_json(hg_koc_key_kinds(key, 4)),
			 "battalions", kinds_json(hg_koc_key_kinds(key, 3)),
			 "companies", kinds_json(hg_koc_key_kinds(key, 2)),
			 "singles", kinds_json(hg_koc_key_kinds(key, 1)));
}

static json_t *player_json(const hg_state *s, unsigned p, const unsigned *points)
{
	json_t *hand = json_array();
	for (size_t c = 0; c < s->cards->n; c++)
		if (s->loc[c] == KOC_IN_HAND + p)
			json_array_append_new(hand, card_json(s->cards, (unsigned)c));
	json_t *sectors = json_array();
	unsigned won = 0;
	for (unsigned k = 0; k < KOC_SECTORS; k++) {
		json_t *cards = json_array();
		for (unsigned i = 0; i < s->nsector[p][k]; i++)
			json_array_append_new(cards, card_json(s->cards, s->sector[p][k][i]));
		json_t *sec = json_pack("{s:i, s:o, s:o}", "sector", (int)k + 1, "cards", cards,
					"army", army_json(s, p, k));
		if (s->winner[k] == (int)p) {
			json_object_set_new(sec, "victory_marker", json_integer(s->marker[k]));
			won++;
		}
		json_array_append_new(sectors, sec);
	}
	json_t *o = json_pack("{s:s, s:b, s:i, s:{s:i, s:o, s:i}, s:o}",
			      "seat", hg_koc_seat_name(p),
			      "first", s->first_known && p == s->first,
			      "victory_markers", (int)won,
			      "hand", "count", (int)s->hand[p], "cards", hand, "hidden", (int)s->hidden[p],
			      "sectors", sectors);
	if (s->points)
		json_object_set_new(o, "points", json_integer(points[p]));
	if (s->names[p] && s->names[p][0])
		json_object_set_new(o, "name", json_string(s->names[p]));
	return o;
}

json_t *hg_koc_position_json(const hg_state *s)
{
	unsigned points[KOC_MAX_PLAYERS];
	hg_koc_score_points(s, points);
	json_t *players = json_array();
	for (unsigned p = 0; p < s->nplayers; p++)
		json_array_append_new(players, player_json(s, p, points));
	json_t *territories = json_array();
	for (unsigned k = 0; k < KOC_SECTORS; k++) {
		json_t *t = json_pack("{s:i}", "sector", (int)k + 1);
		if (s->winner[k] >= 0) {
			json_object_set_new(t, "winner", json_string(hg_koc_seat_name((unsigned)s->winner[k])));
			json_object_set_new(t, "marker", json_integer(s->marker[k]));
		}
		json_array_append_new(territories, t);
	}
	const char *to_move = hg_koc_to_move(s);
	const char *result = hg_koc_result(s);
	return json_pack("{s:s, s:s, s:i, s:I, s:o, s:o, s:o, s:o}",
			 "game", "kingdoms-of-crusaders",
			 "variant", s->points ? "points" : "markers",
			 "round", (int)hg_koc_turn(s),
			 "deck", (json_int_t)(s->cards->n - s->dealt),
			 "to_move", to_move ? json_string(to_move) : json_null(),
			 "result", result ? json_string(result) : json_null(),
			 "players", players, "territories", territories);
}
