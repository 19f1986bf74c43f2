/* position-json.c - an Encrucijada position as JSON, for the replay's JSON
 * and its page: what render.c shows, as data (shape in
 * grammar/herald-replay.schema.json, "enc-position").  A card whose
 * identity the record has not given stays "?"; hidden stacks are counts. */
#include "config.h"

#include <jansson.h>

#include "enc.h"

static const char *const phase_names[] = { "set-up", "A", "B", "C", "D", "E" };

static json_t *resources_json(const hg_state *s, int seat)
{
	int res[ENC_MAX_RES];
	enc_resources(s, seat, res);
	json_t *o = json_object();
	for (int r = 0; r < s->data->pool.nres; r++)
		json_object_set_new(o, s->data->pool.res[r].id, json_integer(res[r]));
	return o;
}

static json_t *town_json(const hg_state *s, int seat)
{
	int v[ENC_MAX_DECK], res[ENC_MAX_RES];
	int n = enc_zone_list(s, seat, ENC_Z_TOWN, v);
	enc_set active = enc_activity(s, seat, res);
	json_t *town = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(town, json_pack("{s:s, s:i, s:b, s:b}",
						      "id", enc_card_of(s, seat, v[i])->id,
						      "value", enc_value(s, seat, v[i]),
						      "active", (int)((active >> v[i]) & 1),
						      "effect_used", enc_effect_used(s, seat, v[i])));
	return town;
}

/* The hand: the cards the record has named, "?" for the others. */
static json_t *hand_json(const hg_state *s, int seat)
{
	int v[ENC_MAX_DECK];
	int n = enc_zone_list(s, seat, ENC_Z_HAND, v);
	json_t *cards = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(cards, json_string(enc_card_id(s, s->p[seat].inst[v[i]].card)));
	return cards;
}

static json_t *stacks_json(const hg_state *s, int seat)
{
	static const char *const states[] = { "free", "used", "blocked" };
	json_t *stacks = json_array();
	for (int st = 0; st < ENC_MAX_STACKS; st++) {
		int n = enc_stack_count(s, seat, st);
		if (n == 0)
			continue;
		char name[2] = { (char)('a' + st), '\0' };
		json_array_append_new(stacks, json_pack("{s:s, s:i, s:s}", "stack", name,
							"count", n, "state",
							states[s->p[seat].stacks[st].state]));
	}
	return stacks;
}

static json_t *player_json(const hg_state *s, int seat)
{
	const enc_player *p = &s->p[seat];
	const enc_pool *pool = &s->data->pool;
	int v[ENC_MAX_DECK];
	json_t *piles = json_array();
	for (int k = 0; k < ENC_PILES; k++)
		json_array_append_new(piles, json_integer(enc_pile_list(s, seat, k, v)));
	json_t *j = json_pack("{s:s, s:i, s:s, s:{s:s, s:i, s:i}, s:o, s:o, s:o, s:i, s:i, s:i,"
			      " s:o, s:o}",
			      "seat", enc_seat_name(seat), "team", p->team + 1,
			      "deck", s->data->decks[p->deck]->id,
			      "tower", "id", pool->cards[p->tower].id, "resistance", enc_tower_of_c(s, seat)->resistance,
			      "of", pool->cards[p->tower].value,
			      "resources", resources_json(s, seat), "piles", piles,
			      "hand", hand_json(s, seat),
			      "discard", enc_zone_count(s, seat, ENC_Z_DISCARD),
			      "wear", p->wear, "credits", p->credits,
			      "town", town_json(s, seat), "stacks", stacks_json(s, seat));
	if (j && (size_t)seat < s->sh->nnames)
		json_object_set_new(j, "name", json_string(s->sh->names[seat]));
	if (j && p->eliminated)
		json_object_set_new(j, "out", json_string(p->eliminated == ENC_LOST_TOWER ?
							  "tower destroyed" : "a pile ran out"));
	return j;
}

static json_t *war_json(const hg_state *s)
{
	static const char *const stages[] = { "none", "declared", "battle", "invasion" };
	static const char *const targets[] = { NULL, "tower", "town", "army" };
	const enc_war *w = &s->war;
	if (w->stage == ENC_WAR_NONE)
		return json_null();
	json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:i, s:i}", "attacker", enc_seat_name(w->att),
			      "defender", enc_seat_name(w->def), "stage", stages[w->stage],
			      "waiting", enc_seat_name(enc_war_waiting(s)),
			      "attacker_wear", s->p[w->att].wear, "defender_wear", s->p[w->def].wear);
	if (!j)
		return json_null();
	char army[2] = { 0, 0 };
	if (w->att_army >= 0) {
		army[0] = (char)('a' + w->att_army);
		json_object_set_new(j, "attacker_army", json_string(army));
	}
	if (w->def_army >= 0) {
		army[0] = (char)('a' + w->def_army);
		json_object_set_new(j, "defender_army", json_string(army));
	}
	if (w->att_card >= 0)
		json_object_set_new(j, "attacker_card", json_pack("{s:s, s:i}", "id",
			enc_card_id(s, s->p[w->att].inst[w->att_card].card),
			"value", enc_value(s, w->att, w->att_card)));
	if (w->def_card >= 0)
		json_object_set_new(j, "defender_card", json_pack("{s:s, s:i}", "id",
			enc_card_id(s, s->p[w->def].inst[w->def_card].card),
			"value", enc_value(s, w->def, w->def_card)));
	if (w->target > ENC_TGT_NONE && w->target <= ENC_TGT_ARMY)
		json_object_set_new(j, "target", json_string(targets[w->target]));
	if (w->target == ENC_TGT_TOWN)
		json_object_set_new(j, "target_card", json_string(
			enc_card_id(s, s->p[w->def].inst[w->target_inst].card)));
	return j;
}

json_t *hg_enc_position_json(const hg_state *s)
{
	json_t *players = json_array();
	for (int i = 0; i < s->nseats; i++)
		json_array_append_new(players, player_json(s, i));
	return json_pack("{s:s, s:i, s:s, s:s, s:s?, s:s?, s:o, s:o}",
			 "game", "encrucijada", "turn", (int)s->turn,
			 "current", enc_seat_name(s->current), "phase", phase_names[s->phase],
			 "to_act", s->over ? NULL : enc_to_move(s),
			 "result", s->over ? s->result : NULL,
			 "players", players, "war", war_json(s));
}
