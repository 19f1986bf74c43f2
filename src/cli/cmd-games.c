/* cmd-games.c - `herald games`: the games herald referees, their aliases
 * and variants, and the data files each uses with where they were found. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { FORMAT_TEXT, FORMAT_JSON };
static const char *const formats[] = { "text", "json", NULL };

typedef struct games_run {
	cli_common common;
	int ids_only;
} games_run;

static int games_option(void *ctx, int opt, const char *arg)
{
	games_run *r = ctx;
	(void)arg;
	if (opt != 'i')
		return -1;
	r->ids_only = 1;
	return 0;
}

static const struct option longopts[] = {
	{ "ids", no_argument, NULL, 'i' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "games",
	.synopsis = "[OPTION]...",
	.about =
	"List every game herald referees: its id (what a record's Game tag names),\n"
	"title, aliases and variants, and the data files it uses with the path where\n"
	"each was found in the data search path (--data-dir, HERALD_DATA_PATH, the\n"
	"installed data, then the source tree's data/ in an uninstalled build).\n"
	"\n"
	"Exit status: 0, or 2 on a usage error.\n",
	.options_help =
	"  -i, --ids              print only the ids, one per line\n",
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

static void game_text(hg_buf *out, const hg_datapath *path, const hg_game_class *cls)
{
	hg_buf_printf(out, "%s: %s\n", cls->id, cls->title ? cls->title : "");
	if (cls->aliases && cls->aliases[0]) {
		hg_buf_puts(out, "  aliases:");
		for (size_t i = 0; cls->aliases[i]; i++)
			hg_buf_printf(out, "%s %s", i ? "," : "", cls->aliases[i]);
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
			hg_buf_printf(out, "    %s: %s\n", cls->data_files[i],
				      where ? where : "not found");
			free(where);
		}
	}
}

static json_t *string_array(const char *const *v)
{
	json_t *a = json_array();
	for (size_t i = 0; v && v[i]; i++)
		json_array_append_new(a, cli_json_string(v[i]));
	return a;
}

static json_t *game_json(const hg_datapath *path, const hg_game_class *cls)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", cli_json_string(cls->id));
	json_object_set_new(o, "title", cli_json_string(cls->title));
	json_object_set_new(o, "aliases", string_array(cls->aliases));
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
		json_array_append_new(files, f);
		free(where);
	}
	json_object_set_new(o, "data_files", files);
	return o;
}

int cli_games_main(int argc, char **argv)
{
	games_run r;
	memset(&r, 0, sizeof r);
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
			json_array_append_new(a, game_json(path, games[i]));
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
			game_text(&out, path, games[i]);
			hg_buf_putc(&out, '\n');
		}
		hg_buf_puts(&out, "data search path (the first directory holding a file wins):\n");
		for (size_t i = 0; i < path->n; i++)
			hg_buf_printf(&out, "  %s\n", path->dirs[i]);
		fputs(out.data, stdout);
		hg_buf_free(&out);
	}
	hg_session_free(session);
	return CLI_EXIT_OK;
}
