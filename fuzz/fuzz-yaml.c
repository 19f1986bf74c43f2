/* fuzz-yaml.c - libFuzzer target: the YAML data tree loader and the YAML
 * and JSON record readers on any bytes, whole and as streams read game by
 * game (which must find errors exactly where the whole reading does). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "herald-engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = hg_yaml_load_mem("fuzz.yaml", (const char *)data, size, &d);
	hg_ydoc_free(doc);
	hg_game_record **games = NULL;
	size_t n = 0;
	if (hg_read_yaml("fuzz.yaml", (const char *)data, size, &games, &n, &d) == 0) {
		for (size_t i = 0; i < n; i++)
			hg_record_free(games[i]);
		free(games);
	}
	games = NULL;
	n = 0;
	if (hg_read_json("fuzz.json", (const char *)data, size, &games, &n, &d) == 0) {
		for (size_t i = 0; i < n; i++)
			hg_record_free(games[i]);
		free(games);
	}
	/* The streams: a document read whole fails exactly when its stream
	 * reports an error. */
	if (size > 0) {
		for (int json = 0; json < 2; json++) {
			FILE *fp = fmemopen((void *)data, size, "rb");
			if (!fp)
				continue;
			hg_diags sd, whole;
			hg_diags_init(&sd);
			hg_diags_init(&whole);
			hg_json_reader *jr = json ? hg_json_reader_open("fuzz.json", fp) : NULL;
			hg_yaml_reader *yr = json ? NULL : hg_yaml_reader_open("fuzz.yaml", fp);
			hg_game_record *g;
			while ((json ? hg_json_reader_next(jr, &g, &sd)
				     : hg_yaml_reader_next(yr, &g, &sd)) == 1)
				hg_record_free(g);
			hg_json_reader_close(jr);
			hg_yaml_reader_close(yr);
			fclose(fp);
			games = NULL;
			n = 0;
			int rc = json ? hg_read_json("fuzz.json", (const char *)data, size, &games, &n, &whole)
				      : hg_read_yaml("fuzz.yaml", (const char *)data, size, &games, &n, &whole);
			if ((rc != 0) != (sd.nerrors > 0)) {
				fprintf(stderr, "the %s stream reader %s errors, the whole reader %s\n",
					json ? "JSON" : "YAML", sd.nerrors ? "finds" : "finds no",
					rc ? "fails" : "does not");
				abort();
			}
			if (rc == 0) {
				for (size_t i = 0; i < n; i++)
					hg_record_free(games[i]);
				free(games);
			}
			hg_diags_free(&sd);
			hg_diags_free(&whole);
		}
	}
	hg_diags_free(&d);
	return 0;
}
