/* cmd-games.c - `herald games`: the games herald referees, their aliases
 * and variants, and the data files each uses with where they were found;
 * with --data, how many of each game's data values are published, read
 * from the rule text, or reconstructed (herald-data(5)). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { FORMAT_TEXT, FORMAT_JSON };
static const char *const formats[] = { "text", "json", NULL };

enum { OPT_DATA = 0x100 };

typedef struct games_run {
	cli_common common;
	int ids_only;
	int data;		/* --data: count the values by provenance */
	hg_diags diags;		/* data files that failed to load */
} games_run;

static int games_option(void *ctx, int opt, const char *arg)
{
	games_run *r = ctx;
	(void)arg;
	if (opt == 'i')
		r->ids_only = 1;
	else if (opt == OPT_DATA)
		r->data = 1;
	else
		return -1;
	return 0;
}

static const struct option longopts[] = {
	{ "ids", no_argument, NULL, 'i' },
	{ "data", no_argument, NULL, OPT_DATA },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "games",
	.synopsis = "[OPTION]...",
	.about =
	N_("List every game herald referees: its id (what a record's Game tag names),\n"
	"title, aliases and variants, and the data files it uses with the path where\n"
	"each was found in the data search path (--data-dir, HERALD_DATA_PATH, the\n"
	"installed data, then the source tree's data/ in an uninstalled build).\n"
	"\n"
	"With --data, also how many of each game's data values are published (a\n"
	"publisher's component list), read from the rule text, reconstructed by\n"
	"herald, or unstated (herald-data(5)).\n"
	"\n"
	"Exit status: 0; 1 when --data found a data file it cannot read; 2 on a\n"
	"usage error.\n"),
	.options_help =
	N_("  -i, --ids              print only the ids, one per line\n"
	"      --data             count each game's data values by provenance\n"),
	.formats = formats,
	.shortopts = "i",
	.longopts = longopts,
	.option = games_option,
};

/* "name: description" */
static void split_variant(const char *v, hg_buf *name, const char **description)
{
	const char *colon = strstr(v, ": ");
	hg_buf_clear(name);
	if (!colon) {
		hg_buf_puts(name, v);
		*description = "";
		return;
	}
	hg_buf_putn(name, v, (size_t)(colon - v));
	*description = colon + 2;
}

/* Adds the values of the data file at `where` to counts by provenance;
 * a file that does not load leaves its diagnostics in r->diags. */
static void count_file(games_run *r, const char *where, size_t counts[HG_PROV_KINDS])
{
	hg_ydoc *doc = hg_yaml_load_file(where, &r->diags);
	hg_provs p;
	hg_provs_init(&p);
	if (doc)
		hg_provs_collect(&p, doc, &r->diags);
	hg_provs_count(&p, counts);
	hg_provs_free(&p);
	hg_ydoc_free(doc);
}

/* "published", "rule_text", ... as JSON keys */
static json_t *counts_json(const size_t counts[HG_PROV_KINDS])
{
	json_t *o = json_object();
	json_object_set_new(o, "published", json_integer((json_int_t)counts[HG_PROV_PUBLISHED]));
	json_object_set_new(o, "rule_text", json_integer((json_int_t)counts[HG_PROV_RULE_TEXT]));
	json_object_set_new(o, "reconstructed",
			    json_integer((json_int_t)counts[HG_PROV_RECONSTRUCTED]));
	json_object_set_new(o, "unstated", json_integer((json_int_t)counts[HG_PROV_UNSTATED]));
	return o;
}

static void counts_text(hg_buf *out, const size_t counts[HG_PROV_KINDS])
{
	hg_buf_printf(out, "%zu published, %zu from the rule text, %zu reconstructed, "
		      "%zu unstated", counts[HG_PROV_PUBLISHED], counts[HG_PROV_RULE_TEXT],
		      counts[HG_PROV_RECONSTRUCTED], counts[HG_PROV_UNSTATED]);
}

static void game_text(games_run *r, hg_buf *out, const hg_datapath *path,
		      const hg_game_class *cls)
{
	size_t total[HG_PROV_KINDS] = { 0 };
	hg_buf_printf(out, "%s: %s\n", cls->id, cls->title ? cls->title : "");
	if (cls->aliases && cls->aliases[0]) {
		hg_buf_puts(out, "  aliases:");
		for (size_t i = 0; cls->aliases[i]; i++)
			hg_buf_printf(out, "%s %s", i ? "," : "", cls->aliases[i]);
		hg_buf_putc(out, '\n');
	}
	hg_buf_printf(out, "  seats: %u to %u\n", cls->min_seats, cls->max_seats);
	if (cls->data_tags && cls->data_tags[0].name) {
		hg_buf_puts(out, "  data tags:");
		for (size_t i = 0; cls->data_tags[i].name; i++)
			hg_buf_printf(out, "%s %s", i ? "," : "", cls->data_tags[i].name);
		hg_buf_putc(out, '\n');
	}
	if (cls->variants && cls->variants[0]) {
		hg_buf_puts(out, "  variants:\n");
		for (size_t i = 0; cls->variants[i]; i++)
			hg_buf_printf(out, "    %s\n", cls->variants[i]);
	}
	if (cls->data_files && cls->data_files[0]) {
		hg_buf_puts(out, "  data files:\n");
		for (size_t i = 0; cls->data_files[i]; i++) {
			char *where = hg_datapath_find(path, cls->data_files[i]);
			hg_buf_printf(out, "    %s: %s", cls->data_files[i],
				      where ? where : "not found");
			if (r->data && where) {
				size_t counts[HG_PROV_KINDS] = { 0 };
				count_file(r, where, counts);
				for (int k = 0; k < HG_PROV_KINDS; k++)
					total[k] += counts[k];
				hg_buf_puts(out, " (");
				counts_text(out, counts);
				hg_buf_putc(out, ')');
			}
			hg_buf_putc(out, '\n');
			free(where);
		}
	}
	if (r->data) {
		hg_buf_puts(out, "  data values: ");
		counts_text(out, total);
		hg_buf_putc(out, '\n');
	}
}

static json_t *string_array(const char *const *v)
{
	json_t *a = json_array();
	for (size_t i = 0; v && v[i]; i++)
		json_array_append_new(a, cli_json_string(v[i]));
	return a;
}

static json_t *game_json(games_run *r, const hg_datapath *path, const hg_game_class *cls)
{
	size_t total[HG_PROV_KINDS] = { 0 };
	json_t *o = json_object();
	json_object_set_new(o, "id", cli_json_string(cls->id));
	json_object_set_new(o, "title", cli_json_string(cls->title));
	json_object_set_new(o, "aliases", string_array(cls->aliases));
	json_t *seats = json_object();
	json_object_set_new(seats, "min", json_integer((json_int_t)cls->min_seats));
	json_object_set_new(seats, "max", json_integer((json_int_t)cls->max_seats));
	json_object_set_new(o, "seats", seats);
	json_t *tags = json_array();
	for (size_t i = 0; cls->data_tags && cls->data_tags[i].name; i++) {
		json_t *t = json_object();
		json_object_set_new(t, "name", cli_json_string(cls->data_tags[i].name));
		json_object_set_new(t, "list", json_boolean(cls->data_tags[i].list));
		json_array_append_new(tags, t);
	}
	json_object_set_new(o, "data_tags", tags);
	json_t *variants = json_array();
	hg_buf name;
	hg_buf_init(&name);
	for (size_t i = 0; cls->variants && cls->variants[i]; i++) {
		const char *description;
		split_variant(cls->variants[i], &name, &description);
		json_t *v = json_object();
		json_object_set_new(v, "name", cli_json_string(name.data ? name.data : ""));
		json_object_set_new(v, "description", cli_json_string(description));
		json_array_append_new(variants, v);
	}
	hg_buf_free(&name);
	json_object_set_new(o, "variants", variants);
	json_t *files = json_array();
	for (size_t i = 0; cls->data_files && cls->data_files[i]; i++) {
		char *where = hg_datapath_find(path, cls->data_files[i]);
		json_t *f = json_object();
		json_object_set_new(f, "name", cli_json_string(cls->data_files[i]));
		json_object_set_new(f, "path", cli_json_string(where));
		if (r->data && where) {
			size_t counts[HG_PROV_KINDS] = { 0 };
			count_file(r, where, counts);
			for (int k = 0; k < HG_PROV_KINDS; k++)
				total[k] += counts[k];
			json_object_set_new(f, "values", counts_json(counts));
		}
		json_array_append_new(files, f);
		free(where);
	}
	json_object_set_new(o, "data_files", files);
	if (r->data)
		json_object_set_new(o, "values", counts_json(total));
	return o;
}

int cli_games_main(int argc, char **argv)
{
	games_run r;
	memset(&r, 0, sizeof r);
	hg_diags_init(&r.diags);
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (first < argc)
		return cli_usage_error(&spec, "extra operand '%s'", argv[first]);

	hg_session *session = cli_session_new(&r.common);
	const hg_datapath *path = hg_session_datapath(session);
	const hg_game_class *const *games = hg_games();
	if (r.ids_only) {
		for (size_t i = 0; games[i]; i++)
			printf("%s\n", games[i]->id);
	} else if (r.common.format == FORMAT_JSON) {
		json_t *doc = json_object();
		json_t *a = json_array();
		for (size_t i = 0; games[i]; i++)
			json_array_append_new(a, game_json(&r, path, games[i]));
		json_object_set_new(doc, "games", a);
		json_t *dirs = json_array();
		for (size_t i = 0; i < path->n; i++)
			json_array_append_new(dirs, cli_json_string(path->dirs[i]));
		json_object_set_new(doc, "data_path", dirs);
		cli_json_print(stdout, doc, 1);
	} else {
		hg_buf out;
		hg_buf_init(&out);
		for (size_t i = 0; games[i]; i++) {
			game_text(&r, &out, path, games[i]);
			hg_buf_putc(&out, '\n');
		}
		hg_buf_puts(&out, "data search path (the first directory holding a file wins):\n");
		for (size_t i = 0; i < path->n; i++)
			hg_buf_printf(&out, "  %s\n", path->dirs[i]);
		cli_buf_check(&out);
		fputs(out.data, stdout);
		hg_buf_free(&out);
	}
	hg_session_free(session);
	int bad = r.diags.nerrors > 0;
	cli_print_diags(stderr, &r.diags, cli_use_colour(&r.common, stderr), 0);
	hg_diags_free(&r.diags);
	return bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
