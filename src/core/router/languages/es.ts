/** Spanish. */
import type { RouterLanguage } from "./types";

export const es: RouterLanguage = {
  code: "es",
  stop:
    "el la los las lo un una unos unas de del al y e o u pero si que qu quien quienes cual cuales cuyo este esta esto estos estas ese esa eso esos esas " +
    "yo me mi mis mio mia tu te ti tus el ella ello nos nosotros vosotros os ellos ellas se su sus le les nuestro nuestra " +
    "es son era soy eres somos estoy esta estan estas he ha has hemos han hay haber hace hacer puedes puede podrias podria quiero quisiera " +
    "en con sin para por sobre entre hasta desde hacia a ante tras no ni ya muy mas tambien todo todos toda todas algo bien solo porfa favor porfavor " +
    "como cuando donde por que porque cuanto cuanta que",
  days: "hoy ayer manana anteayer",
  smallTalk: [
    "eres (muy |el |la |lo )?(genial|increible|mejor|maximo|crack|buenisimo|buenisima|bueno|buena)", "buen trabajo", "bien hecho",
    "hola", "holi", "buenas", "buenos dias", "buenas (tardes|noches)", "hey", "que tal", "que onda", "que hay",
    "gracias", "muchas gracias", "mil gracias", "te lo agradezco", "muy amable",
    "como estas", "como esta usted", "como te va", "como andas", "todo bien", "que tal estas",
    "quien eres", "que eres", "que puedes hacer", "que sabes hacer",
    "cuentame un chiste", "dime un chiste", "(sabes|conoces) (algun|un) chiste", "hazme reir", "dime algo gracioso",
    "vale", "ok", "genial", "perfecto", "guay", "chao", "adios", "hasta (luego|manana|pronto|la vista)", "nos vemos", "que tengas (un )?buen dia",
  ],
  chatWords: ["chistes?", "gracios[oa]"],
  question: ["que", "quien", "quienes", "cual", "cuales", "como", "cuando", "donde", "por que", "cuanto", "cuanta", "cuantos", "explica\\w*", "sabes"],
  vault: [
    "notas?", "boveda", "vault", "archivos?", "ficheros?", "carpetas?", "diario", "etiquetas?", "tags?", "enlaces?", "vinculos?", "backlinks?", "mi", "mis", "nuestr[oa]s?",
    "inbox", "tareas?", "pendientes?", "proyectos?", "paginas?", "escrib\\w*", "guard\\w*", "recuerd\\w*", "busc\\w*", "encuentr\\w*", "abr\\w*", "lee", "propiedad\\w*",
  ],
  change: [
    "guard\\w*", "escrib\\w*", "anad\\w*", "agreg\\w*", "crea\\w*", "haz", "pon", "poner", "actualiz\\w*", "cambi\\w*", "edit\\w*", "modific\\w*", "recuerd\\w*", "apunt\\w*", "anot\\w*",
    "renombr\\w*", "muev\\w*", "mover", "borr\\w*", "elimin\\w*", "quit\\w*", "marc\\w*", "reemplaz\\w*", "sustitu\\w*", "corrig\\w*", "establec\\w*",
  ],
  stepStarts: ["luego", "despues", "después", "y luego", "y despues", "y después", "y", "e", "entonces", "finalmente", "por ultimo", "por último", "pero", "sin", "primero", "antes de", "a continuacion", "a continuación"],
  negationFirst: ["no"],
  negation: ["nunca", "sin", "nada", "ningun\\w*", "ningún", "jamas", "jamás"],
  notNegation: ["no (te )?olvides", "no olvides"],
  answerOnly: ["solo dime", "sólo dime", "solamente dime", "solo dimelo", "sólo dímelo", "dimelo solo", "dímelo solo", "solo lectura", "sólo lectura", "en tu respuesta", "solo responde", "no toques", "no toque", "solo (busca|mira|lee|revisa|consulta)", "sólo (busca|mira|lee|revisa|consulta)", "responde (solo|solamente|sólo)", "(solo|sólo) responde"],
  look: ["mira\\w*", "revisa\\w*", "repasa\\w*", "consulta\\w*", "echa un vistazo"],
  sets: ["tod[oa]s (?:l[oa]s |mis |nuestr[oa]s |est[oa]s )\\w+", "cada \\w+", "cuant[oa]s?", "en total", "total\\w*", "suma", "promedio", "mas de \\d+", "menos de \\d+", "al menos", "cuy[oa]s?"],
  personal: ["mis? \\w+", "nuestr[oa]s?", "hemos \\w+", "codigo de (?:la puerta|acceso|la alarma)", "(?:yo )?he \\w+(?:ado|ido|cho|to)", "telefono", "e-?mail", "correo", "contrasena", "clave", "wi-?fi", "cumpleanos", "contacto", "cita", "iban"],
  recall: ["prefier\\w*", "prefer\\w*", "favorit[oa]s?"],
  hints: {
    "base:query": ["¿Cuántos de mis proyectos están activos?", "Suma el coste de todos los proyectos activos de Priya", "¿Cuál es la valoración media de mis libros?", "Total de horas en todos los proyectos"],
    "base:read": ["¿Qué muestra la base Proyectos.base?", "Explica los filtros de esta base"],
    "base:create": ["Crea una base que muestre mis libros como tabla", "Haz un archivo .base de los proyectos activos ordenados por fecha"],
    "base:edit": ["Añade una vista a la base", "Cambia el filtro de Proyectos.base"],
    "vault:read": ["Muéstrame el contenido de Proyectos/Plan.md", "Léeme la nota de la reunión", "Abre el archivo [[Plan semanal]]", "¿Qué pone en la nota?", "Resume la nota Ideas.md"],
    "vault:write": ["Crea una nota nueva llamada Viaje.md", "Haz una nota en la carpeta Proyectos", "Escribe una nota nueva con este texto", "Sobrescribe toda la nota", "Nota nueva"],
    "vault:append": ["Añade esta frase al final de la nota", "Agrega una línea a la nota", "Completa la nota con este punto", "Pon esto abajo del todo en Inbox.md", "Apunta esto en el archivo"],
    "vault:edit": ["Cambia \"viejo\" por \"nuevo\" en la nota", "Cambia el texto de la nota", "Corrige la errata en Ideas.md", "Sustituye esta palabra por otra", "Modifica la frase de la nota", "Edita la línea de la nota"],
    "vault:list": ["Lista todas las notas de la carpeta", "¿Qué archivos hay en la carpeta Proyectos?", "Enséñame lo que hay en la carpeta", "¿Cuántas notas tengo?", "La lista de mis archivos"],
    "vault:search": ["¿Hay algo en mis notas sobre este tema?", "Busca esta palabra en mis notas", "Encuentra las notas que hablan de este tema", "¿Dónde escribí sobre eso?", "Rastrea la bóveda buscando un término", "¿Qué nota menciona esto?"],
    "vault:semantic_search": ["Encuentra notas parecidas a esta idea", "¿Qué pensaba yo sobre este tema?", "Notas similares sobre este asunto"],
    "vault:move": ["Mueve la nota a la carpeta Archivo", "Renombra el archivo", "Ponle otro nombre a la nota", "Pasa la nota a otra carpeta", "Archiva la nota"],
    "vault:delete": ["Borra la nota", "Elimina el archivo Borrador.md", "Manda la nota a la papelera", "Quita esta nota vieja", "Eliminar una nota"],
    "note:active": ["Resume la nota actual", "¿De qué trata esta nota?", "La nota que está abierta ahora", "¿Qué estoy viendo?"],
    "note:selection": ["Explica el fragmento seleccionado", "Reescribe la selección", "El texto que he resaltado", "Lo que tengo seleccionado", "Acorta la selección"],
    "note:outline": ["Muestra los títulos de la nota", "¿Qué secciones tiene Proyectos/Plan.md?", "El índice de la nota", "La estructura de la nota", "Los encabezados del documento"],
    "tags:list": ["¿Qué etiquetas hay en mi bóveda?", "Lista todas mis etiquetas", "Mis etiquetas más usadas", "Muestra mis tags"],
    "tags:notes": ["Las notas con la etiqueta #trabajo", "¿Qué notas tienen el tag #idea?", "Todo lo etiquetado como proyecto", "Todas las notas con #cocina"],
    "links:backlinks": ["¿Qué notas enlazan a [[Inicio]]?", "Los vínculos entrantes de esta nota", "Los backlinks de la nota", "¿Dónde se cita esta nota?", "¿Quién apunta a esta nota?"],
    "links:outgoing": ["¿Qué enlaces tiene la nota?", "¿A dónde apunta Inicio.md?", "Los enlaces salientes de la nota", "Los enlaces rotos de la nota"],
    "frontmatter:get": ["¿Cuál es el estado del proyecto en sus propiedades?", "Muestra el frontmatter de Proyectos/Plan.md", "Los metadatos de la nota", "¿Qué propiedades tiene la nota?", "¿Para cuándo vence el proyecto?", "el total de la propiedad precio en mis notas"],
    "frontmatter:set": ["Pon el estado de la nota en terminado", "Cambia la propiedad prioridad", "Añade una fecha de vencimiento en las propiedades", "Marca el proyecto como acabado", "Actualiza el frontmatter"],
    "daily:get": ["¿Qué hay en mi nota diaria de hoy?", "Enséñame el diario de ayer", "¿Qué hice el 2026-11-18?", "Abre la nota del día"],
    "daily:append": ["Escribe en el diario de hoy que salí a correr", "Añade esto a mi nota del día", "Apunta en mi diario que la reunión fue bien", "Anota en el diario de hoy"],
    "tasks:list": ["¿Qué tareas me quedan?", "Enséñame mi lista de pendientes", "¿Qué tengo que hacer todavía?", "Las tareas sin hacer", "¿Qué tareas he terminado?"],
    "tasks:add": ["Tarea nueva: lavar el coche", "Añade una tarea", "Crea un pendiente nuevo", "Recuérdame llamar al médico", "Pon esto en mi lista de tareas", "Tengo que acordarme de comprar pan"],
    "tasks:complete": ["Marca la tarea como hecha", "Ya terminé la tarea, márcala", "Tacha ese pendiente de la lista", "He completado la tarea"],
    "clock:now": ["¿Qué hora es?", "¿Qué día es hoy?", "La fecha de hoy", "¿En qué semana estamos?", "¿Tienes hora?"],
    "memory:save": ["Recuerda que tomo el café sin azúcar", "No olvides que el cumpleaños de Ana es en mayo", "Guárdate esto para más tarde", "Ten en cuenta que prefiero el sistema métrico"],
    "memory:recall": ["¿Qué sabes de mí?", "¿Qué recuerdas de mí?", "¿Te acuerdas de lo que te dije sobre Ana?", "¿Recuerdas mis preferencias?", "¿Qué te he contado?"],
    "web:fetch": ["Lee la página web https://example.com", "¿Qué dice esta web?", "Trae el artículo de esa dirección", "Resume el enlace"],
  },
};
