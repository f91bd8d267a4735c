/** English. The tools' own routing hints are English too; these add the wider ways people ask. */
import type { RouterLanguage } from "./types";

export const en: RouterLanguage = {
  code: "en",
  stop:
    "a an the and or but if then else of to in on at by for with from into onto about as is are was were be been being am " +
    "do does did doing have has had i me my mine we our you your he she it its they them their this that these those " +
    "what which who whom how when where why can could would should will shall may might must please pls just some any " +
    "all there here so very too also up out over again more most such no not only own same than s t don now let lets " +
    "ll re ve d m hey ok okay wanna gonna could i'd i'm im you're thing things something stuff get got give",
  days: "today todays tonight yesterday yesterdays tomorrow tomorrows",
  smallTalk: [
    "you('re| are) (so |really |very |just )?(awesome|great|amazing|the best|brilliant|wonderful|fantastic|helpful|a star|a lifesaver|a genius)", "you rock", "(good|great|nice) (job|work)", "well done", "love (it|you)",
    "hi", "hello", "hey", "heya", "hiya", "yo", "howdy", "greetings", "sup", "what's up", "whats up",
    "thanks", "thank you", "thank u", "thx", "ty", "much appreciated", "appreciate it",
    "good (morning|evening|night|afternoon|day)", "morning", "evening", "night night",
    "how are you", "how are u", "how's it going", "hows it going", "how do you do", "how have you been",
    "who are you", "what are you", "what can you do", "what do you do",
    "tell me a joke", "(tell|know) (me )?(any|a) (good )?jokes?", "make me laugh", "say something funny",
    "ok", "okay", "cool", "great", "nice", "awesome", "perfect", "bye", "goodbye", "see you", "see ya", "later", "take care", "have a (good|nice) (day|one|night|evening)",
  ],
  chatWords: ["jokes?", "funny", "riddles?"],
  question: ["what", "who", "whom", "why", "how", "when", "where", "which", "explain", "define", "tell me about", "is", "are", "can you explain", "do you know", "what's", "whats", "who's"],
  vault: [
    "notes?", "vault", "files?", "folders?", "daily", "journal", "tags?", "tagged", "links?", "backlinks?", "my", "our", "inbox",
    "to-dos?", "todo list", "tasks?", "projects?", "pages?", "write", "save", "remember", "search", "find", "open", "read", "frontmatter", "propert(y|ies)",
  ],
  change: [
    "save", "saving", "saved", "write", "writing", "add(?! up)", "adding", "append", "create", "creating", "make", "update", "updating", "change", "changing",
    "edit", "editing", "remember", "store", "record", "put", "insert", "rename", "move", "delete", "remove", "mark", "check off", "tick", "set", "log",
    "jot", "note down", "keep", "fix", "replace", "combine", "merge",
  ],
  stepStarts: ["then", "and then", "after that", "afterwards", "next", "finally", "and", "also", "once (that's|that is|you're|you are) done", "but", "without", "first", "before", "after"],
  negation: ["don't", "dont", "do not", "never", "without", "no need to", "avoid", "must not", "mustn't", "should not", "shouldn't", "nothing"],
  notNegation: ["don't forget", "dont forget", "do not forget", "never forget"],
  answerOnly: ["just tell me", "only tell me", "tell me only", "just answer", "just show me", "read[- ]only", "in (your|the) (reply|answer)", "reply only", "don't touch", "dont touch", "do not touch", "leave (it|them|everything|the \\w+|all \\w+|any \\w+)( \\w+)? (alone|untouched|unchanged|as (it|they) (is|are))", "(only|just) (look|read|check|search|peek)( \\w+)?", "(answer|reply|respond)( \\w+){0,4} only", "only (answer|reply)"],
  look: ["go through", "look (at|over|into|through)", "check", "review", "skim", "peek at"],
  sets: ["all (?:of )?(?:my |our |the |these |those )?\\w+", "every \\w+", "each \\w+", "how many", "how much", "in total", "totals?", "sum", "average", "more than", "less than", "fewer than", "at least", "at most", "older than", "longer than", "shorter than", "whose"],
  personal: ["my", "our", "(?:door|gate|alarm|access|entry|pin) code", "did i", "have i", "had i", "do i have", "i've", "did we", "have we", "phone", "phone number", "telephone", "e-?mail address", "home address", "password", "passcode", "pin", "wi-?fi", "birthday", "contact person", "appointment", "account number", "iban"],
  recall: ["prefer\\w*", "favou?rite", "told you", "do i like"],
  hints: {
    "base:query": ["How many of my projects are active?", "Add up the cost of the active projects Priya owns", "What is the average rating of my books?", "Total hours logged across all projects"],
    "base:read": ["What does the base Projects.base show?", "Explain the filters of this base"],
    "base:create": ["Create a base that shows my books as a table", "Make a .base file of the active projects sorted by due date"],
    "base:edit": ["Add a view to the base", "Change the filter of Projects.base"],
    "vault:read": ["pull up my note on", "bring up Projects/Plan.md", "show me what Projects/Plan.md says", "let me see the note", "give me the text of [[Weekly Plan]]", "what's written in the file"],
    "vault:write": ["start a new note", "draft a note titled", "create a file in Projects", "put this into a brand new note", "replace the whole note with"],
    "vault:append": ["put this at the bottom of the note", "add this to the end of the note", "tack this onto my note", "add a bullet to the note"],
    "vault:edit": ["replace \"old text\" with \"new text\" in the note", "swap this word for another in the note", "reword the sentence in the note", "fix a mistake in the note", "change the wording in Ideas.md"],
    "vault:list": ["which notes are in the folder", "show me the folder contents", "how many notes do I have", "list everything in Projects/"],
    "vault:search": ["do I have any notes about", "search the vault for", "any notes that mention", "look through my notes for the word", "where did I mention"],
    "vault:move": ["move this note into the Archive folder", "relocate the file to another folder", "give the note a new name"],
    "vault:delete": ["erase the note", "I don't need this note anymore, delete it"],
    "note:active": ["the note I'm on right now", "summarize the current page", "what is this note about"],
    "note:selection": ["the highlighted passage", "translate the selected text", "what I selected", "shorten the selection"],
    "note:outline": ["list the headings of the note", "what are the sections of Projects/Plan.md", "give me an overview of the note's structure"],
    "tags:list": ["which tags exist in my vault", "how many tags do I have", "show my tag list"],
    "tags:notes": ["everything tagged #work", "show notes with the #idea tag", "find notes carrying a tag"],
    "links:backlinks": ["who links to [[Home]]", "what references this note", "incoming links to the note"],
    "links:outgoing": ["which notes does this page link to", "links going out of the note", "the links inside Home.md"],
    "frontmatter:get": ["the note's properties", "what's the status field of the note", "read the metadata of Projects/Plan.md", "add up the price property of all my notes", "the average rating in my book notes"],
    "frontmatter:set": ["change the status property to done", "set a property on the note", "mark the project as finished in its properties"],
    "daily:get": ["what's in today's daily note", "show me yesterday's journal", "my journal for today"],
    "daily:append": ["add to my journal for today", "jot in today's daily note", "log this in my diary"],
    "tasks:list": ["what do I still have to do", "show my to-do list", "which tasks are open", "my pending todos"],
    "tasks:add": ["new task: wash the car", "add a to-do", "put a new task on my list", "remind me tomorrow to"],
    "tasks:complete": ["that task is done now", "cross off the task", "mark the to-do as finished"],
    "clock:now": ["what's the time", "what date is it today", "what's today's date", "tell me the time"],
    "memory:save": ["remember this about me", "make a note that I prefer", "keep this in your memory"],
    "memory:recall": ["what do you know about me", "do you remember what I said about", "what have I told you"],
    "web:fetch": ["read this page https://example.com", "summarize the website at", "grab the article from the link"],
  },
};
