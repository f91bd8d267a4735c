/** Dutch. */
import type { RouterLanguage } from "./types";

export const nl: RouterLanguage = {
  code: "nl",
  stop:
    "de het een en of maar als dan dat die dit deze wie wat welk welke waar wanneer waarom hoe " +
    "ik me mij mijn jij je jou jouw u uw hij zij ze wij we ons onze jullie hun haar zijn " +
    "is ben bent was waren heb hebt heeft hebben had kan kun kunt kunnen zou zal wil wilt moet mag doe doen " +
    "in op aan bij met van voor naar uit over onder tussen door zonder om tot te er niet geen ook nog al wel even eens graag alsjeblieft alstublieft aub " +
    "heel erg veel alles iets nu hier daar toch",
  days: "vandaag gisteren morgen eergisteren overmorgen vanavond vanochtend vanmorgen",
  smallTalk: [
    "je bent (echt |zo |gewoon |de )?(geweldig|super|top|beste|fantastisch|een topper)", "goed gedaan", "lekker bezig",
    "hallo", "hoi", "hey", "hee", "hai", "goede(morgen|middag|navond)", "goeie(morgen|middag)", "goedenacht", "welterusten", "dag", "moi",
    "dank( je| u)?( wel)?", "dankjewel", "dankuwel", "bedankt", "thanks", "merci",
    "hoe gaat (het|ie)", "hoe is het", "alles goed", "hoe maak je het",
    "wie ben je", "wat ben je", "wat kun je",
    "vertel (me )?(eens )?een (mop|grap)", "ken je een (mop|grap)", "maak me aan het lachen", "zeg iets grappigs",
    "ok", "oke", "prima", "top", "super", "mooi", "doei", "dag dag", "tot (ziens|straks|morgen|later)", "fijne (dag|avond)", "fijn weekend",
  ],
  chatWords: ["grap\\w*", "moppen?", "mop"],
  question: ["wat", "wie", "welke?", "waar", "wanneer", "waarom", "hoe", "hoeveel", "leg uit", "verklaar", "weet je", "is", "zijn"],
  vault: [
    "notitie\\w*", "notes?", "kluis", "vault", "bestand\\w*", "map", "mappen", "dagboek\\w*", "dagnotitie\\w*", "journaal", "tags?", "labels?", "links?", "koppeling\\w*", "backlinks?", "mijn", "onze?",
    "inbox", "taken", "taak", "to-dos?", "project\\w*", "pagina\\w*", "schrijf\\w*", "opslaan", "sla\\w*", "onthoud\\w*", "zoek\\w*", "vind", "open\\w*", "lees", "eigenschap\\w*",
  ],
  change: [
    "opslaan", "sla\\w*", "schrijf\\w*", "voeg\\w*", "toevoegen", "maak\\w*", "zet\\w*", "update\\w*", "bijwerk\\w*", "wijzig\\w*", "verander\\w*", "bewerk\\w*", "onthoud\\w*", "noteer\\w*",
    "hernoem\\w*", "verplaats\\w*", "verwijder\\w*", "wis\\w*", "gooi\\w*", "markeer\\w*", "vink\\w*", "vervang\\w*", "verbeter\\w*", "corrigeer\\w*", "stel\\w* in",
  ],
  stepStarts: ["dan", "daarna", "vervolgens", "en dan", "en", "tenslotte", "ten slotte", "maar", "zonder", "eerst", "voordat", "nadat"],
  negation: ["niet", "niets", "niks", "nergens", "geen", "nooit", "zonder"],
  notNegation: ["vergeet niet", "niet vergeten"],
  answerOnly: ["vertel (het )?me (alleen|gewoon|enkel)", "zeg (het )?me (alleen|gewoon)", "alleen[- ]lezen", "in je antwoord", "alleen antwoorden", "kom nergens aan", "blijf (er )?af", "niet aankomen", "laat \\w+( \\w+)? (staan|ongemoeid|ongewijzigd)", "alleen (opzoeken|lezen|kijken|bekijken|zoeken)", "antwoord alleen"],
  look: ["bekijk\\w*", "kijk\\w*", "controleer", "doorloop", "ga \\w+( \\w+)? door"],
  sets: ["alle \\w+", "elke? \\w+", "iedere? \\w+", "hoeveel", "in totaal", "totaal", "som", "gemiddeld\\w*", "meer dan", "minder dan", "minstens", "waarvan", "wiens"],
  personal: ["mijn", "onze?", "deurcode", "toegangscode", "heb ik", "had ik", "hebben we", "ik (?:heb|had) (?:\\w+ ){0,4}ge\\w+", "telefoon\\w*", "e-?mail\\w*", "wachtwoord", "wi-?fi", "verjaardag", "contactpersoon", "afspraak", "iban"],
  recall: ["voorkeur\\w*", "favoriet\\w*", "liefst"],
  hints: {
    "base:query": ["Hoeveel van mijn projecten zijn actief?", "Tel de kosten van alle actieve projecten van Priya op", "Wat is de gemiddelde score van mijn boeken?", "Totaal aantal uren over alle projecten"],
    "base:read": ["Wat laat de base Projecten.base zien?", "Leg de filters van deze base uit"],
    "base:create": ["Maak een base die mijn boeken als tabel toont", "Maak een .base-bestand van de actieve projecten gesorteerd op deadline"],
    "base:edit": ["Voeg een weergave toe aan de base", "Wijzig het filter van Projecten.base"],
    "vault:read": ["Laat de inhoud van Projecten/Plan.md zien", "Lees de notitie over de vergadering voor", "Open het bestand [[Weekplanning]]", "Wat staat er in de notitie?", "Vat de notitie Ideeën.md samen"],
    "vault:write": ["Maak een nieuwe notitie met de naam Reis.md", "Maak een bestand aan in de map Projecten", "Schrijf een nieuwe notitie met deze tekst", "Overschrijf de hele notitie", "Nieuwe notitie"],
    "vault:append": ["Voeg deze zin toe aan het einde van de notitie", "Zet er een regel bij in de notitie", "Vul de notitie aan met dit punt", "Schrijf dit onderaan Inbox.md", "Noteer dit in het bestand"],
    "vault:edit": ["Vervang \"oud\" door \"nieuw\" in de notitie", "Verander de tekst in de notitie", "Verbeter de typfout in Ideeën.md", "Vervang dit woord door een ander", "Pas de zin in de notitie aan", "Bewerk de regel in de notitie"],
    "vault:list": ["Geef een lijst van alle notities in de map", "Welke bestanden staan in de map Projecten?", "Laat zien wat er in de map zit", "Hoeveel notities heb ik?", "Overzicht van mijn bestanden"],
    "vault:search": ["Staat er iets over dit onderwerp in mijn notities?", "Zoek dit woord in mijn notities", "Vind notities waarin dit onderwerp voorkomt", "Waar heb ik daarover geschreven?", "Doorzoek de kluis op een term", "Welke notitie noemt dit?"],
    "vault:semantic_search": ["Vind notities die op dit idee lijken", "Wat dacht ik over dit onderwerp?", "Vergelijkbare notities over dit thema"],
    "vault:move": ["Verplaats de notitie naar de map Archief", "Hernoem het bestand", "Geef de notitie een nieuwe naam", "Zet de notitie in een andere map", "Archiveer de notitie"],
    "vault:delete": ["Verwijder de notitie", "Wis het bestand Concept.md", "Gooi de notitie in de prullenbak", "Haal deze oude notitie weg", "Notitie verwijderen"],
    "note:active": ["Vat de huidige notitie samen", "Waar gaat deze notitie over?", "De notitie die nu open staat", "Waar kijk ik nu naar?"],
    "note:selection": ["Leg het geselecteerde stuk uit", "Herschrijf de selectie", "De tekst die ik gemarkeerd heb", "Wat ik geselecteerd heb", "Maak de selectie korter"],
    "note:outline": ["Laat de koppen van de notitie zien", "Welke secties heeft Projecten/Plan.md?", "Inhoudsopgave van de notitie", "De structuur van de notitie"],
    "tags:list": ["Welke tags zijn er in mijn kluis?", "Geef een lijst van al mijn tags", "Mijn meest gebruikte tags", "Toon mijn labels"],
    "tags:notes": ["Notities met de tag #werk", "Welke notities hebben het label #idee?", "Alles wat getagd is met project", "Alle notities met #koken"],
    "links:backlinks": ["Welke notities verwijzen naar [[Start]]?", "Inkomende links naar deze notitie", "Backlinks van de notitie", "Waar wordt deze notitie gelinkt?"],
    "links:outgoing": ["Welke links staan er in de notitie?", "Waar linkt Home.md naartoe?", "Uitgaande links van de notitie", "Kapotte links in de notitie"],
    "frontmatter:get": ["Wat is de status van het project in de eigenschappen?", "Laat de frontmatter van Projecten/Plan.md zien", "Metadata van de notitie", "Welke eigenschappen heeft de notitie?", "Wanneer moet het project af zijn?", "het totaal van de eigenschap prijs in mijn notities"],
    "frontmatter:set": ["Zet de status van de notitie op klaar", "Wijzig de eigenschap prioriteit", "Voeg een deadline toe aan de eigenschappen", "Markeer het project als afgerond", "Werk de frontmatter bij"],
    "daily:get": ["Wat staat er in mijn dagnotitie van vandaag?", "Laat mijn dagboek van gisteren zien", "Wat deed ik op 2026-11-18?", "Open de notitie van vandaag"],
    "daily:append": ["Schrijf in het dagboek van vandaag dat ik ben gaan fietsen", "Voeg dit toe aan mijn dagnotitie", "Noteer in mijn dagboek dat de vergadering goed ging", "Zet in het journaal van vandaag"],
    "tasks:list": ["Welke taken moet ik nog doen?", "Laat mijn to-dolijst zien", "Wat moet ik nog afmaken?", "De taken die nog niet af zijn", "Welke taken heb ik al afgevinkt?"],
    "tasks:add": ["Nieuwe taak: de auto wassen", "Voeg een taak toe", "Maak een nieuwe to-do", "Herinner me eraan de dokter te bellen", "Zet dit op mijn takenlijst", "Ik moet nog brood kopen"],
    "tasks:complete": ["Markeer de taak als gedaan", "De taak is klaar, vink hem af", "Streep die to-do door", "Ik heb de taak afgerond"],
    "clock:now": ["Hoe laat is het?", "Welke dag is het vandaag?", "De datum van vandaag", "Welke week is het?", "Weet je hoe laat het is?"],
    "memory:save": ["Onthoud dat ik koffie zonder suiker drink", "Vergeet niet dat Anna in mei jarig is", "Bewaar dit voor later", "Houd in gedachten dat ik metrische eenheden wil"],
    "memory:recall": ["Wat weet je over mij?", "Wat weet je nog over mij?", "Weet je nog wat ik over Anna zei?", "Herinner je je mijn voorkeuren?", "Wat heb ik je verteld?"],
    "web:fetch": ["Lees de webpagina https://example.com", "Wat staat er op deze website?", "Haal het artikel op van die url", "Vat de link samen"],
  },
};
