/** Portuguese (Brazil and Portugal). */
import type { RouterLanguage } from "./types";

export const pt: RouterLanguage = {
  code: "pt",
  stop:
    "o a os as um uma uns umas de do da dos das no na nos nas ao aos e ou mas se que quem qual quais este esta isto estes estas esse essa isso " +
    "eu me mim meu minha meus minhas tu te ti voce voces ele ela eles elas nos nosso nossa seu sua seus suas lhe lhes " +
    "e sao era sou estou esta estao tem tenho temos ha foi fazer faz pode podes poderia quero queria " +
    "em com sem para pra pro por sobre entre ate desde nao ja muito mais tambem todo todos toda todas algo bem so favor por favor ai " +
    "como quando onde porque quanto quanta",
  days: "hoje ontem amanha anteontem",
  smallTalk: [
    "voce e (muito |o |a |demais|incrivel)?(bom|boa|demais|incrivel|otimo|otima|melhor|genial)", "mandou bem", "bom trabalho",
    "ola", "oi", "oie", "e ai", "bom dia", "boa (tarde|noite)", "hey", "opa", "fala",
    "obrigad[oa]", "muito obrigad[oa]", "valeu", "brigad[oa]", "agradeco",
    "tudo bem", "tudo bom", "como vai", "como voce esta", "como esta", "como estas", "beleza",
    "quem e voce", "quem es tu", "o que voce (faz|sabe fazer|pode fazer)",
    "(me )?conta uma piada", "(me )?conte uma piada", "(sabe|conhece) (alguma|uma) piada", "me faz rir", "diz algo engracado",
    "ok", "certo", "beleza", "otimo", "perfeito", "legal", "tchau", "adeus", "ate (logo|mais|amanha|breve)", "falou", "bom fim de semana",
  ],
  chatWords: ["piadas?", "engracad\\w*"],
  question: ["o que", "que", "quem", "qual", "quais", "como", "quando", "onde", "por que", "porque", "quanto", "quantos", "explica\\w*", "voce sabe", "sabe"],
  vault: [
    "notas?", "cofre", "vault", "arquivos?", "ficheiros?", "pastas?", "diario", "tags?", "etiquetas?", "links?", "ligac\\w*", "backlinks?", "meus?", "minhas?", "noss[oa]s?",
    "inbox", "tarefas?", "pendenc\\w*", "projetos?", "paginas?", "escrev\\w*", "salv\\w*", "guard\\w*", "lembr\\w*", "procur\\w*", "encontr\\w*", "abr\\w*", "propriedades?",
  ],
  change: [
    "salv\\w*", "guard\\w*", "escrev\\w*", "adicion\\w*", "acrescent\\w*", "cri\\w*", "faz", "faca", "poe", "coloc\\w*", "atualiz\\w*", "mud\\w*", "troc\\w*", "edit\\w*", "alter\\w*",
    "lembr\\w*", "anot\\w*", "renome\\w*", "mov\\w*", "apag\\w*", "exclu\\w*", "remov\\w*", "marc\\w*", "substitu\\w*", "corrig\\w*", "defin\\w*",
  ],
  stepStarts: ["depois", "em seguida", "e depois", "e", "entao", "então", "por fim", "finalmente", "sem", "primeiro", "antes de"],
  negation: ["nao", "não", "nunca", "sem", "nada", "nenhum\\w*"],
  notNegation: ["nao (se )?esqueca", "não (se )?esqueça", "nao esquecer", "não esquecer"],
  answerOnly: ["so me diga", "só me diga", "apenas me diga", "so me diz", "só me diz", "somente leitura", "apenas leitura", "na (sua|tua) resposta", "so responda", "só responda", "nao mexa", "não mexa", "nao toque", "não toque", "(so|só|apenas) (procure|veja|leia|olhe|consulte)", "(so|só) quero saber", "responda apenas", "apenas responda"],
  look: ["veja", "olhe", "revise", "confira", "consulte", "de uma olhada", "dê uma olhada"],
  sets: ["tod[oa]s (?:[oa]s |meus |minhas |noss[oa]s |est[ea]s )\\w+", "cada \\w+", "quant[oa]s?", "no total", "em total", "total\\w*", "soma", "media", "mais de \\d+", "menos de \\d+", "pelo menos", "cuj[oa]s?"],
  personal: ["meus?", "minhas?", "noss[oa]s?", "(?:temos|tinhamos) \\w+", "codigo (?:da porta|de acesso|do alarme)", "eu \\w+(?:ei|i)", "(?:eu )?(?:tenho|tinha) \\w+(?:ado|ido)", "telefone", "e-?mail", "senha", "wi-?fi", "aniversario", "contato", "consulta", "iban"],
  recall: ["prefir\\w*", "prefer\\w*", "favorit[oa]s?"],
  hints: {
    "base:query": ["Quantos dos meus projetos estão ativos?", "Soma o custo de todos os projetos ativos da Priya", "Qual é a nota média dos meus livros?", "Total de horas em todos os projetos"],
    "base:read": ["O que mostra a base Projetos.base?", "Explica os filtros desta base"],
    "base:create": ["Cria uma base que mostre os meus livros como tabela", "Faz um arquivo .base dos projetos ativos ordenados por prazo"],
    "base:edit": ["Adiciona uma vista à base", "Muda o filtro de Projetos.base"],
    "vault:read": ["Mostra o conteúdo de Projetos/Plano.md", "Lê pra mim a nota da reunião", "Abre o arquivo [[Plano semanal]]", "O que está escrito na nota?", "Resume a nota Ideias.md"],
    "vault:write": ["Cria uma nota nova chamada Viagem.md", "Faz uma nota na pasta Projetos", "Escreve uma nota nova com este texto", "Sobrescreve a nota inteira", "Nova nota"],
    "vault:append": ["Adiciona esta frase no final da nota", "Acrescenta uma linha na nota", "Completa a nota com este item", "Coloca isto no fim do Inbox.md", "Anota isto no arquivo"],
    "vault:edit": ["Troca \"velho\" por \"novo\" na nota", "Muda o texto da nota", "Corrige o erro de digitação em Ideias.md", "Substitui esta palavra por outra", "Altera a frase da nota", "Edita a linha da nota"],
    "vault:list": ["Lista todas as notas da pasta", "Que arquivos tem na pasta Projetos?", "Mostra o que tem na pasta", "Quantas notas eu tenho?", "A lista dos meus arquivos"],
    "vault:search": ["Já escrevi alguma coisa sobre esse assunto?", "Procura esta palavra nas minhas notas", "Encontra as notas que falam deste assunto", "Onde foi que eu escrevi sobre isso?", "Pesquisa no cofre por um termo", "Que nota menciona isso?"],
    "vault:semantic_search": ["Encontra notas parecidas com esta ideia", "O que eu pensava sobre esse tema?", "Notas semelhantes sobre o assunto"],
    "vault:move": ["Move a nota para a pasta Arquivo", "Renomeia o arquivo", "Dá outro nome para a nota", "Passa a nota para outra pasta", "Arquiva a nota"],
    "vault:delete": ["Apaga a nota", "Exclui o arquivo Rascunho.md", "Manda a nota pra lixeira", "Remove essa nota velha", "Excluir uma nota"],
    "note:active": ["Resume a nota atual", "Sobre o que é esta nota?", "A nota que está aberta agora", "O que eu estou vendo aqui?"],
    "note:selection": ["Explica o trecho selecionado", "Reescreve a seleção", "O texto que eu destaquei", "O que eu selecionei", "Encurta a seleção"],
    "note:outline": ["Mostra os títulos da nota", "Quais seções tem Projetos/Plano.md?", "O índice da nota", "A estrutura da nota", "Os cabeçalhos do documento"],
    "tags:list": ["Quais tags existem no meu cofre?", "Lista todas as minhas tags", "Minhas etiquetas mais usadas", "Mostra minhas tags"],
    "tags:notes": ["As notas com a tag #trabalho", "Quais notas têm a etiqueta #ideia?", "Tudo marcado com a tag projeto", "Todas as notas com #cozinha"],
    "links:backlinks": ["Quais notas linkam para [[Início]]?", "Os links que apontam para esta nota", "Os backlinks da nota", "Onde esta nota é citada?", "Quem faz referência a esta nota?"],
    "links:outgoing": ["Quais links a nota tem?", "Para onde aponta Início.md?", "Os links de saída da nota", "Os links quebrados da nota"],
    "frontmatter:get": ["Qual é o status do projeto nas propriedades?", "Mostra o frontmatter de Projetos/Plano.md", "Os metadados da nota", "Que propriedades a nota tem?", "Quando vence o prazo do projeto?", "o total da propriedade preço nas minhas notas"],
    "frontmatter:set": ["Põe o status da nota como concluído", "Muda a propriedade prioridade", "Adiciona uma data de entrega nas propriedades", "Marca o projeto como terminado", "Atualiza o frontmatter"],
    "daily:get": ["O que tem na minha nota diária de hoje?", "Mostra o diário de ontem", "O que eu fiz no dia 2026-11-18?", "Abre a nota do dia"],
    "daily:append": ["Escreve no diário de hoje que eu fui correr", "Adiciona isto na minha nota do dia", "Anota no meu diário que a reunião foi boa", "Registra no diário de hoje"],
    "tasks:list": ["Quais tarefas ainda faltam?", "Mostra minha lista de pendências", "O que eu ainda preciso fazer?", "As tarefas não feitas", "Quais tarefas eu já terminei?"],
    "tasks:add": ["Nova tarefa: lavar o carro", "Adiciona uma tarefa", "Cria um novo afazer", "Me lembra de ligar para o médico", "Coloca isto na minha lista de tarefas", "Preciso lembrar de comprar pão"],
    "tasks:complete": ["Marca a tarefa como feita", "Já terminei a tarefa, pode marcar", "Risca essa pendência da lista", "Concluí a tarefa"],
    "clock:now": ["Que horas são?", "Que dia é hoje?", "A data de hoje", "Em que semana estamos?", "Você tem as horas?"],
    "memory:save": ["Lembra que eu tomo café sem açúcar", "Não esquece que o aniversário da Ana é em maio", "Guarda isso pra depois", "Grava na memória que eu prefiro unidades métricas"],
    "memory:recall": ["O que você sabe sobre mim?", "O que você lembra sobre mim?", "Você se lembra do que eu disse sobre a Ana?", "Lembra das minhas preferências?", "O que eu te contei?"],
    "web:fetch": ["Lê a página https://example.com", "O que diz este site?", "Busca o artigo nesse endereço", "Resume o link"],
  },
};
