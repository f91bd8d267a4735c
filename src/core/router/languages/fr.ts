/** French. */
import type { RouterLanguage } from "./types";

export const fr: RouterLanguage = {
  code: "fr",
  stop:
    "le la les l un une des du de d et ou mais si donc or ni car que qu qui quoi dont ou ce cet cette ces c ca cela ceci " +
    "je j me m moi tu te t toi il elle on nous vous ils elles se s lui leur leurs mon ma mes ton ta tes son sa ses notre nos votre vos " +
    "est sont etait suis es sommes etes ai as a avons avez ont avait fait faire peux peut pouvez pourrais pourriez veux voudrais " +
    "dans sur sous avec sans pour par en au aux chez vers entre y ne pas plus tres bien aussi encore deja tout tous toute toutes " +
    "svp stp merci moi-meme juste un peu quel quelle quels quelles est-ce comment combien pourquoi quand",
  days: "aujourdhui hier demain",
  smallTalk: [
    "tu es (vraiment |trop |super |le |la )?(genial|geniale|super|top|meilleure?|formidable|trop fort|trop forte)", "t'es (trop |vraiment )?(fort|forte|genial|top|le meilleur)", "bien joue", "bravo",
    "bonjour", "bonsoir", "salut", "coucou", "hello", "bonne (nuit|journee|soiree|matinee)", "re",
    "merci", "merci beaucoup", "mille mercis", "je te remercie", "je vous remercie", "c'est gentil",
    "(comment )?(ca|ça) va", "comment vas[- ]tu", "comment allez[- ]vous", "tu vas bien", "quoi de neuf",
    "qui es[- ]tu", "tu es qui", "que sais[- ]tu faire", "qu'est[- ]ce que tu sais faire",
    "raconte[- ]moi une blague", "(tu )?(connais|as)[- ](tu )?une (bonne )?blague", "fais[- ]moi rire", "dis[- ]moi (une blague|quelque chose de drole)",
    "ok", "d'accord", "super", "genial", "parfait", "cool", "au revoir", "a plus", "a bientot", "a demain", "bonne fin de journee", "salut a plus",
  ],
  chatWords: ["blagues?", "drole"],
  question: ["qu'est[- ]ce", "qu'est-ce que", "qui", "quoi", "quel(le)?s?", "comment", "pourquoi", "quand", "ou", "combien", "explique", "c'est quoi", "est[- ]ce que", "sais[- ]tu"],
  vault: [
    "notes?", "coffre", "vault", "fichiers?", "dossiers?", "journal", "journaux", "quotidienne?", "tags?", "etiquettes?", "liens?", "backlinks?", "mon", "mes (?!de |que )\\w+", "notre",
    "inbox", "taches?", "to-dos?", "projets?", "pages?", "ecri\\w*", "enregistr\\w*", "retien\\w*", "souviens", "cherch\\w*", "trouv\\w*", "ouvr\\w*", "lis", "proprietes?",
  ],
  change: [
    "enregistr\\w*", "sauvegard\\w*", "ecri\\w*", "ajout\\w*", "rajout\\w*", "cre\\w*", "fai[st]", "mets", "mettre", "modifi\\w*", "chang\\w*", "remplac\\w*", "corrig\\w*",
    "retien\\w*", "souviens", "noter", "notez", "renomm\\w*", "deplac\\w*", "supprim\\w*", "efface\\w*", "coche\\w*", "marque\\w*", "defini\\w*", "range\\w*", "inscri\\w*", "passe",
  ],
  stepStarts: ["puis", "ensuite", "et puis", "et ensuite", "et", "apres (ca|cela)", "après (ça|cela)", "enfin", "finalement", "sans", "d'abord", "avant de", "une fois"],
  negation: ["sans", "jamais", "rien", "aucun\\w*", "pas"],
  notNegation: ["n'oublie pas", "oublie pas"],
  answerOnly: ["dis[- ]moi (juste|seulement|simplement)", "dis[- ]le[- ]moi (juste|seulement|simplement)", "lecture seule", "dans ta reponse", "dans ta réponse", "reponds seulement", "réponds seulement", "ne touche (a )?(rien|pas)", "ne touchez (a )?(rien|pas)", "(juste|seulement) (regarder|lire|chercher|consulter)", "regarde seulement"],
  look: ["regarde\\w*", "parcour\\w*", "consulte\\w*", "verifie\\w*", "vérifie\\w*", "passe en revue"],
  sets: ["tou(?:s|tes?) (?:les |mes |nos |ces )\\w+", "chaque \\w+", "combien", "au total", "en tout", "total\\w*", "somme", "moyenne", "plus de \\d+", "moins de \\d+", "au moins", "au plus"],
  personal: ["mon", "mes (?!de |que )\\w+", "notre", "nous avons", "digicode", "code (?:de la porte|d'acces|de l'alarme)", "ai-je", "avais-je", "avons-nous", "que j'ai", "j'ai (?:\\w+ ){0,2}\\w{3,}(?:e|i|is|it|u)", "telephone", "e-?mail", "courriel", "mot de passe", "wi-?fi", "anniversaire", "contact", "rendez-vous", "iban"],
  recall: ["prefer\\w*", "favori\\w*"],
  hints: {
    "base:query": ["Combien de mes projets sont actifs ?", "Additionne le coût de tous les projets actifs de Priya", "Quelle est la note moyenne de mes livres ?", "Total des heures sur tous les projets"],
    "base:read": ["Que montre la base Projets.base ?", "Explique les filtres de cette base"],
    "base:create": ["Une nouvelle base Obsidian de mes livres en tableau", "Fais un fichier .base des projets actifs triés par échéance"],
    "base:edit": ["Ajoute une vue à la base", "Change le filtre de Projets.base"],
    "vault:read": ["Montre-moi le contenu de Projets/Plan.md", "Lis-moi la note sur la réunion", "Ouvre le fichier [[Planning]]", "Qu'est-ce qui est écrit dans la note ?", "Résume la note Idées.md"],
    "vault:write": ["Crée une nouvelle note appelée Voyage.md", "Fais une note dans le dossier Projets", "Écris une nouvelle note avec ce texte", "Remplace tout le contenu de la note", "Nouvelle note"],
    "vault:append": ["Ajoute cette phrase à la fin de la note", "Rajoute une ligne dans la note", "Complète la note avec ce point", "Mets ça en bas de Inbox.md", "Note ça dans le fichier"],
    "vault:edit": ["Remplace « ancien » par « nouveau » dans la note", "Modifie le texte de la note", "Corrige la faute de frappe dans Idées.md", "Remplace ce mot par un autre", "Change la phrase dans la note", "Reformule la ligne dans la note"],
    "vault:list": ["Liste toutes les notes du dossier", "Quels fichiers sont dans le dossier Projets ?", "Montre ce qu'il y a dans le dossier", "Combien de notes j'ai ?", "La liste de mes fichiers"],
    "vault:search": ["Ai-je déjà pris des notes sur ce sujet ?", "Recherche ce mot dans mes notes", "Trouve les notes qui parlent de ce sujet", "Où est-ce que j'ai écrit là-dessus ?", "Fouille le coffre pour ce terme", "Quelle note mentionne ça ?"],
    "vault:semantic_search": ["Trouve des notes proches de cette idée", "Qu'est-ce que je pensais de ce sujet ?", "Des notes similaires sur ce thème"],
    "vault:move": ["Déplace la note dans le dossier Archives", "Renomme le fichier", "Donne un nouveau nom à la note", "Mets la note dans un autre dossier", "Archive la note"],
    "vault:delete": ["Supprime la note", "Efface le fichier Brouillon.md", "Mets la note à la corbeille", "Débarrasse-toi de cette vieille note", "Supprimer une note"],
    "note:active": ["Résume la note actuelle", "De quoi parle cette note ?", "La note ouverte en ce moment", "Qu'est-ce que je regarde là ?"],
    "note:selection": ["Explique le passage sélectionné", "Reformule la sélection", "Le texte que j'ai surligné", "Ce que j'ai sélectionné", "Raccourcis la sélection"],
    "note:outline": ["Fais-moi le plan du document", "Montre les titres de la note", "Quelles sections a Projets/Plan.md ?", "La table des matières de la note", "La structure de la note", "Les intertitres du document"],
    "tags:list": ["Quels tags existent dans mon coffre ?", "Liste toutes mes étiquettes", "Mes tags les plus utilisés", "Affiche mes tags"],
    "tags:notes": ["Les notes avec le tag #travail", "Quelles notes ont l'étiquette #idée ?", "Tout ce qui est tagué projet", "Toutes les notes avec #cuisine"],
    "links:backlinks": ["Quelles notes font un lien vers [[Accueil]] ?", "Les rétroliens de cette note", "Les backlinks de la note", "Où est cité cette note ?", "Qui renvoie à cette note ?"],
    "links:outgoing": ["Quels liens contient la note ?", "Vers quoi pointe Accueil.md ?", "Les liens sortants de la note", "Les liens cassés de la note"],
    "frontmatter:get": ["Quel est le statut du projet dans ses propriétés ?", "Montre le frontmatter de Projets/Plan.md", "Les métadonnées de la note", "Quelles propriétés a la note ?", "C'est pour quand l'échéance du projet ?", "le total de la propriété prix dans mes notes"],
    "frontmatter:set": ["Mets le statut de la note à terminé", "Change la propriété priorité", "Ajoute une date d'échéance dans les propriétés", "Marque le projet comme fini", "Mets à jour le frontmatter"],
    "daily:get": ["Montre-moi la note du jour d'hier", "Qu'est-ce qu'il y a dans ma note quotidienne d'aujourd'hui ?", "Montre mon journal d'hier", "Qu'est-ce que j'ai fait le 2026-11-18 ?", "Ouvre la note du jour"],
    "daily:append": ["Écris dans le journal d'aujourd'hui que je suis allé courir", "Ajoute ça à ma note du jour", "Note dans mon journal que la réunion s'est bien passée", "Inscris dans le journal quotidien"],
    "tasks:list": ["Quelles tâches me restent ?", "Montre ma liste de choses à faire", "Qu'est-ce que je dois encore faire ?", "Les tâches pas encore faites", "Quelles tâches ai-je terminées ?"],
    "tasks:add": ["Nouvelle tâche : laver la voiture", "Ajoute une tâche", "Crée un nouveau to-do", "Rappelle-moi d'appeler le médecin", "Mets ça sur ma liste de tâches", "Il faut que je pense à acheter du pain"],
    "tasks:complete": ["Marque la tâche comme faite", "La tâche est finie, coche-la", "Raye ce to-do de la liste", "J'ai terminé la tâche"],
    "clock:now": ["Quelle heure est-il ?", "Quel jour sommes-nous ?", "La date d'aujourd'hui", "On est dans quelle semaine ?", "Tu as l'heure ?"],
    "memory:save": ["Souviens-toi que je bois mon café sans sucre", "N'oublie pas que l'anniversaire d'Anna est en mai", "Garde ça en mémoire pour plus tard", "Retiens que je préfère les unités métriques"],
    "memory:recall": ["Qu'est-ce que tu sais sur moi ?", "Qu'est-ce que tu as retenu sur moi ?", "Tu te souviens de ce que je t'ai dit sur Anna ?", "Tu te rappelles mes préférences ?", "Qu'est-ce que je t'ai raconté ?"],
    "web:fetch": ["Lis la page web https://example.com", "Qu'est-ce que dit ce site ?", "Récupère l'article à cette adresse", "Résume le lien"],
  },
};
