/** Italian. */
import type { RouterLanguage } from "./types";

export const it: RouterLanguage = {
  code: "it",
  stop:
    "il lo la i gli le l un uno una un di del dello della dei degli delle da dal dalla dai a al allo alla ai agli alle in nel nello nella nei negli nelle " +
    "su sul sulla sui con per tra fra e ed o ma se che chi cui quale quali questo questa questi queste quello quella quelli quelle " +
    "io mi me mio mia miei mie tu ti te tuo tua lui lei noi ci nostro nostra voi vi loro si suo sua " +
    "e sono era ero sei siamo ho hai ha abbiamo hanno c ce puoi puo potresti vorrei voglio fare fai fa non piu molto anche gia tutto tutti tutta tutte " +
    "qualcosa bene solo per favore perfavore come quando dove perche quanto quanta",
  days: "oggi ieri domani dopodomani stamattina stasera",
  smallTalk: [
    "sei (davvero |proprio |troppo |il |la |un )?(bravo|brava|grande|fantastico|fantastica|migliore|genio|mitico|mitica)", "ottimo lavoro", "ben fatto", "bravo", "brava",
    "ciao", "salve", "buongiorno", "buonasera", "buonanotte", "buon pomeriggio", "ehi", "hey", "hola",
    "grazie", "grazie mille", "molte grazie", "ti ringrazio", "gentilissimo",
    "come (stai|va|te la passi|sta)", "tutto (bene|ok|a posto)",
    "chi sei", "cosa sei", "cosa (sai|puoi) fare",
    "raccontami una barzelletta", "dimmi una (barzelletta|battuta)", "(sai|conosci) una barzelletta", "fammi ridere", "dimmi qualcosa di divertente",
    "ok", "va bene", "perfetto", "ottimo", "fantastico", "arrivederci", "a (dopo|presto|domani)", "ci vediamo", "buona giornata", "buona serata",
  ],
  chatWords: ["barzellett\\w*", "divertent\\w*"],
  question: ["cosa", "che cosa", "che", "chi", "quale", "quali", "come", "quando", "dove", "perche", "quanto", "quanti", "spiega\\w*", "sai"],
  vault: [
    "note?", "nota", "vault", "cassaforte", "file", "cartell\\w*", "diario", "tag", "etichett\\w*", "link", "collegament\\w*", "backlink", "mio", "mia", "miei", "mie", "nostr\\w*",
    "inbox", "attivita", "compiti?", "cose da fare", "progett\\w*", "pagin\\w*", "scriv\\w*", "salv\\w*", "ricord\\w*", "cerc\\w*", "trov\\w*", "apr\\w*", "leggi", "propriet\\w*",
  ],
  change: [
    "salv\\w*", "scriv\\w*", "aggiung\\w*", "crea\\w*", "fai", "metti", "mettere", "aggiorn\\w*", "cambi\\w*", "modific\\w*", "ricord\\w*", "annot\\w*", "segn\\w*",
    "rinomin\\w*", "spost\\w*", "cancell\\w*", "elimin\\w*", "rimuov\\w*", "sostitu\\w*", "corregg\\w*", "impost\\w*",
  ],
  stepStarts: ["poi", "quindi", "dopo", "e poi", "e", "ed", "infine", "alla fine", "senza", "prima", "successivamente"],
  negation: ["non", "mai", "senza", "niente", "nulla", "nessun\\w*"],
  notNegation: ["non dimenticare", "non scordare"],
  answerOnly: ["dimmelo (solo|soltanto|e basta)", "dimmi (solo|soltanto)", "sola lettura", "nella (tua )?risposta", "rispondi (solo|soltanto)", "non toccare", "non toccate", "(solo|soltanto) (guarda|leggi|cerca|controlla)"],
  look: ["guarda\\w*", "controlla\\w*", "rivedi", "scorri", "dai un'occhiata"],
  sets: ["tutt[ie] (?:i |le |gli |l'|i miei |le mie |questi |queste )?\\w+", "ogni \\w+", "ciascun\\w* \\w+", "quant[ie]", "quanto", "in totale", "totale", "somma", "media", "piu di \\d+", "meno di \\d+", "almeno", "il cui", "la cui", "i cui", "le cui"],
  personal: ["mio", "mia", "miei", "mie", "nostr[oaie]", "abbiamo \\w+", "codice (?:della porta|d'accesso|dell'allarme)", "ho \\w+(?:ato|uto|ito|so|to)", "avevo", "telefono", "e-?mail", "password", "wi-?fi", "compleanno", "referente", "contatto", "appuntamento", "iban"],
  recall: ["prefer\\w*", "preferit[oaie]"],
  hints: {
    "base:query": ["Quanti dei miei progetti sono attivi?", "Somma il costo di tutti i progetti attivi di Priya", "Qual è la valutazione media dei miei libri?", "Totale delle ore su tutti i progetti"],
    "base:read": ["Cosa mostra la base Progetti.base?", "Spiega i filtri di questa base"],
    "base:create": ["Crea una base che mostri i miei libri come tabella", "Fai un file .base dei progetti attivi ordinati per scadenza"],
    "base:edit": ["Aggiungi una vista alla base", "Cambia il filtro di Progetti.base"],
    "vault:read": ["Mostrami il contenuto di Progetti/Piano.md", "Leggimi la nota della riunione", "Apri il file [[Piano settimanale]]", "Cosa c'è scritto nella nota?", "Riassumi la nota Idee.md"],
    "vault:write": ["Crea una nuova nota chiamata Viaggio.md", "Fai una nota nella cartella Progetti", "Scrivi una nota nuova con questo testo", "Sovrascrivi tutta la nota", "Nuova nota"],
    "vault:append": ["Aggiungi questa frase alla fine della nota", "Metti una riga in più nella nota", "Completa la nota con questo punto", "Scrivi questo in fondo a Inbox.md", "Annota questo nel file"],
    "vault:edit": ["Sostituisci \"vecchio\" con \"nuovo\" nella nota", "Cambia il testo della nota", "Correggi l'errore di battitura in Idee.md", "Sostituisci questa parola con un'altra", "Modifica la frase nella nota", "Riscrivi la riga della nota"],
    "vault:list": ["Elenca tutte le note della cartella", "Quali file ci sono nella cartella Progetti?", "Mostrami cosa c'è nella cartella", "Quante note ho?", "L'elenco dei miei file"],
    "vault:search": ["Ho qualcosa nelle note su questo argomento?", "Cerca questa parola nelle mie note", "Trova le note che parlano di questo argomento", "Dove avevo scritto di questo?", "Cerca nel vault un termine", "Quale nota ne parla?"],
    "vault:semantic_search": ["Trova note simili a questa idea", "Cosa pensavo di questo tema?", "Note affini su questo argomento"],
    "vault:move": ["Sposta la nota nella cartella Archivio", "Rinomina il file", "Dai un nuovo nome alla nota", "Metti la nota in un'altra cartella", "Archivia la nota"],
    "vault:delete": ["Cancella la nota", "Elimina il file Bozza.md", "Butta la nota nel cestino", "Togli questa vecchia nota", "Eliminare una nota"],
    "note:active": ["Riassumi la nota corrente", "Di cosa parla questa nota?", "La nota aperta adesso", "Cosa sto guardando?"],
    "note:selection": ["Spiega il passaggio selezionato", "Riformula la selezione", "Il testo che ho evidenziato", "Quello che ho selezionato", "Accorcia la selezione"],
    "note:outline": ["Mostra i titoli della nota", "Quali sezioni ha Progetti/Piano.md?", "L'indice della nota", "La struttura della nota", "Le intestazioni del documento"],
    "tags:list": ["Quali tag ci sono nel mio vault?", "Elenca tutti i miei tag", "I tag che uso di più", "Mostra le mie etichette"],
    "tags:notes": ["Le note con il tag #lavoro", "Quali note hanno l'etichetta #idea?", "Tutto ciò che è taggato progetto", "Tutte le note con #cucina"],
    "links:backlinks": ["Quali note collegano a [[Home]]?", "I collegamenti in entrata di questa nota", "I backlink della nota", "Dove viene citata questa nota?", "Chi punta a questa nota?"],
    "links:outgoing": ["Quali link contiene la nota?", "A cosa punta Home.md?", "I link in uscita della nota", "I collegamenti rotti della nota"],
    "frontmatter:get": ["Qual è lo stato del progetto nelle proprietà?", "Mostra il frontmatter di Progetti/Piano.md", "I metadati della nota", "Che proprietà ha la nota?", "Quando scade il progetto?", "il totale della proprietà prezzo nelle mie note"],
    "frontmatter:set": ["Metti lo stato della nota su completato", "Cambia la proprietà priorità", "Aggiungi una scadenza nelle proprietà", "Segna il progetto come finito", "Aggiorna il frontmatter"],
    "daily:get": ["Cosa c'è nella nota giornaliera di oggi?", "Fammi vedere il diario di ieri", "Cosa ho fatto il 2026-11-18?", "Apri la nota del giorno"],
    "daily:append": ["Scrivi nel diario di oggi che sono andato a correre", "Aggiungi questo alla nota del giorno", "Annota nel diario che la riunione è andata bene", "Segna nel diario di oggi"],
    "tasks:list": ["Quali attività mi mancano?", "Mostrami la lista delle cose da fare", "Cosa devo ancora fare?", "I compiti non ancora fatti", "Quali attività ho completato?"],
    "tasks:add": ["Nuova attività: lavare la macchina", "Aggiungi un'attività", "Crea un nuovo promemoria da fare", "Ricordami di chiamare il medico", "Metti questo nella lista delle cose da fare", "Devo ricordarmi di comprare il pane"],
    "tasks:complete": ["Segna l'attività come fatta", "Ho finito il compito, spuntalo", "Togli questa cosa da fare dalla lista", "Ho completato l'attività"],
    "clock:now": ["Che ora è?", "Che giorno è oggi?", "La data di oggi", "In che settimana siamo?", "Mi dici l'ora?"],
    "memory:save": ["Ricorda che prendo il caffè senza zucchero", "Non dimenticare che il compleanno di Anna è a maggio", "Tieni a mente questa cosa per dopo", "Memorizza che preferisco le unità metriche"],
    "memory:recall": ["Cosa sai di me?", "Cosa ricordi di me?", "Ti ricordi cosa ti ho detto di Anna?", "Ricordi le mie preferenze?", "Cosa ti ho raccontato?"],
    "web:fetch": ["Leggi la pagina web https://example.com", "Cosa dice questo sito?", "Scarica l'articolo a questo indirizzo", "Riassumi il link"],
  },
};
