/**
 * Every language table, in the router's order (English first). Only data: main.js's build replaces this module
 * with the same tables as compressed JSON (esbuild.config.mjs, routerLanguagesPacked), a third of their size.
 */
import { de } from "./de";
import { en } from "./en";
import { es } from "./es";
import { fr } from "./fr";
import { it } from "./it";
import { ja } from "./ja";
import { ko } from "./ko";
import { nl } from "./nl";
import { pl } from "./pl";
import { pt } from "./pt";
import { ru } from "./ru";
import { tr } from "./tr";
import { uk } from "./uk";
import { zh } from "./zh";
import type { RouterLanguage } from "./types";

export const ALL_LANGUAGES: readonly RouterLanguage[] = [en, de, fr, es, pt, it, nl, pl, ru, uk, tr, zh, ja, ko];
