// Labels in English and Portuguese, side by side; the table's own words (Truco!, Desce,
// Corro...) are the same in both.

const LABELS = {
  title: ["Truco", "Truco"],
  tagline: ["Truco Paulista and Mineiro against the computer or friends",
    "Truco Paulista e Mineiro contra o computador ou os amigos"],
  yourName: ["Your name", "Seu nome"],
  nameHint: ["Up to 32 characters: what the others see at the table.",
    "Até 32 caracteres: o que os outros veem na mesa."],
  register: ["Sit down", "Sentar à mesa"],
  loading: ["Loading…", "Carregando…"],
  registered: ["Playing as", "Jogando como"],
  tokenHelp: ["Your key for this browser. Copy it to play from another device.",
    "Sua chave neste navegador. Copie-a para jogar de outro aparelho."],
  copy: ["Copy", "Copiar"],
  copied: ["Copied", "Copiado"],
  useToken: ["Have a key from another device?", "Tem uma chave de outro aparelho?"],
  useTokenButton: ["Use this key", "Usar esta chave"],
  key: ["Key", "Chave"],
  badKey: ["This key is not known here: check that it was copied whole.",
    "Esta chave não é conhecida aqui: confira se foi copiada inteira."],
  signOut: ["Leave this browser", "Sair deste navegador"],
  signOutConfirm: ["Leave this browser? Without your key (Copy it first) you cannot come back to your matches.",
    "Sair deste navegador? Sem a sua chave (copie-a antes) você não volta às suas partidas."],
  deleteAccount: ["Delete my account", "Apagar minha conta"],
  deleteAccountHelp: ["Your unfinished matches are given up (one being played counts as lost), your key stops working everywhere, and your finished matches show you as \u201cDeleted player\u201d. This cannot be undone.",
    "Suas partidas não terminadas são abandonadas (uma em andamento conta como perdida), sua chave para de funcionar em todo lugar e suas partidas terminadas passam a mostrar \u201cDeleted player\u201d. Não dá para desfazer."],
  deleteAccountButton: ["Delete my account for good", "Apagar minha conta de vez"],
  accountDeleted: ["Your account is deleted. Thank you for playing.",
    "Sua conta foi apagada. Obrigado por jogar."],
  yourKey: ["Your key, to play from another device", "Sua chave, para jogar de outro aparelho"],
  // where a player stands: ratings (duel: 2 players; teams: 4 and 6), record, leaderboard
  formats: {
    duel: ["Duel · 2 players", "Duelo · 2 jogadores"],
    teams: ["Teams · 4 and 6 players", "Equipes · 4 e 6 jogadores"],
  },
  formatsShort: { duel: ["Duel", "Duelo"], teams: ["Teams", "Equipes"] },
  provisional: ["provisional", "provisório"],
  provisionalHint: ["Provisional: still finding your level, which takes 10 to 20 matches.",
    "Provisório: ainda encontrando o seu nível, o que leva de 10 a 20 partidas."],
  ratedMatches: [(n) => (n === 0 ? "no rated match yet"
    : `${n} rated ${n === 1 ? "match" : "matches"}`),
    (n) => (n === 0 ? "nenhuma partida ranqueada ainda"
      : `${n} ${n === 1 ? "partida ranqueada" : "partidas ranqueadas"}`)],
  record: ["Matches", "Partidas"],
  recordWords: [(played, won, lost, byTime) => `${played} played · ${won} won · ${lost} lost`
      + (byTime ? ` (${byTime} by time)` : ""),
    (played, won, lost, byTime) => `${played} ${played === 1 ? "disputada" : "disputadas"} · `
      + `${won} ${won === 1 ? "vitória" : "vitórias"} · ${lost} `
      + `${lost === 1 ? "derrota" : "derrotas"}` + (byTime ? ` (${byTime} por tempo)` : "")],
  leaderboard: ["Leaderboard", "Classificação"],
  boardFormat: ["Kind of match", "Tipo de partida"],
  boardCaption: {
    duel: ["Duel ratings: 2-player matches, best first",
      "Pontuação em duelo: partidas de 2 jogadores, do melhor para baixo"],
    teams: ["Team ratings: 4- and 6-player matches, best first",
      "Pontuação em equipe: partidas de 4 e 6 jogadores, do melhor para baixo"],
  },
  boardRank: ["Rank", "Posição"],
  boardPlayer: ["Player", "Jogador"],
  boardRating: ["Rating", "Pontuação"],
  boardMatches: ["Rated matches", "Partidas ranqueadas"],
  showBots: ["Show the computer levels", "Mostrar os níveis do computador"],
  more: ["More", "Mais"],
  boardEmpty: ["Nobody has a rated match here yet.", "Ninguém tem partida ranqueada aqui ainda."],
  notOnBoard: ["You are not on this list yet: finish a match of this kind to be on it.",
    "Você ainda não está nesta lista: termine uma partida deste tipo para entrar nela."],
  ratingsOf: { duel: ["Duel ratings", "Pontuação em duelo"],
    teams: ["Team ratings", "Pontuação em equipe"] },
  liveNow: ["Live now", "Ao vivo"],
  watch: ["Watch", "Assistir"],
  // a player's page
  myPage: ["My page", "Minha página"],
  whereNext: ["Players", "Jogadores"],
  playingSince: [(when) => `Playing since ${when}`, (when) => `Jogando desde ${when}`],
  builtInLevel: ["A computer level of this server", "Um nível do computador deste servidor"],
  thisIsYou: ["This is you.", "Este é você."],
  sitDownFirst: ["To play them, sit down first:", "Para jogar, sente-se à mesa primeiro:"],
  sitDownLink: ["give your name on the home screen", "dê o seu nome na tela inicial"],
  challenge: ["Challenge to a duel", "Desafiar para um duelo"],
  challengeHint: [(name) => `A 2-player match with a seat kept for ${name}: the invitation waits in their matches.`,
    (name) => `Uma partida de 2 jogadores com um lugar guardado para ${name}: o convite espera nas partidas de ${name}.`],
  ratingHistory: ["Latest rated matches", "Últimas partidas ranqueadas"],
  ratingLineSaid: [(fmt, n, from, to) => `${fmt} rating over `
      + `${n === 1 ? "the last rated match" : `the last ${n} rated matches`}: from ${from} to ${to}`,
    (fmt, n, from, to) => `Pontuação em ${fmt.toLowerCase()} `
      + `${n === 1 ? "na última partida ranqueada" : `nas últimas ${n} partidas ranqueadas`}: `
      + `de ${from} a ${to}`],
  blockPlayer: [(name) => `Block ${name}: refuse their invitations`,
    (name) => `Bloquear ${name}: recusar os convites`],
  blockedSaid: [(name, n) => `Blocked.${n ? ` ${n} invitation${n === 1 ? "" : "s"} from ${name} declined.` : ""}`,
    (name, n) => `Bloqueado.${n ? ` ${n} ${n === 1 ? "convite" : "convites"} de ${name} recusado${n === 1 ? "" : "s"}.` : ""}`],
  playLevel: [(name) => `Play against ${name}`, (name) => `Jogar contra ${name}`],
  // the browser's notifications
  notifyMe: ["Notify me when it is my turn", "Avisar quando for a minha vez"],
  notifyBlocked: ["This browser blocks notifications from this site: allow them in its settings.",
    "Este navegador bloqueia os avisos deste site: permita-os nas configurações dele."],
  noteTurn: ["Truco: your turn", "Truco: sua vez"],
  noteInvitation: ["Truco: an invitation to a match", "Truco: um convite para uma partida"],
  newMatch: ["New match", "Nova partida"],
  players: ["Players", "Jogadores"],
  ruleset: ["Rules", "Regras"],
  level: ["Computer level", "Nível do computador"],
  turnTimeout: ["Time per turn", "Tempo por jogada"],
  onTimeout: ["When time runs out", "Quando o tempo acaba"],
  noLimit: ["No limit", "Sem limite"],
  autoPlay: ["The computer plays for me", "O computador joga por mim"],
  forfeit: ["The team loses", "A dupla perde"],
  moreOptions: ["More rules", "Mais regras"],
  byDefault: ["default", "padrão"],
  start: ["Play against the computer", "Jogar contra o computador"],
  friends: ["Friends to invite", "Amigos a convidar"],
  invite: ["Create for friends", "Criar para amigos"],
  inbox: ["My matches", "Minhas partidas"],
  noMatches: ["No matches yet.", "Nenhuma partida ainda."],
  // the lobby: open matches anyone may join, and a match created for anyone
  lobby: ["Open matches", "Partidas abertas"],
  noOpenMatches: ["No open matches now: create one for anyone, with “Anyone may join” ticked.",
    "Nenhuma partida aberta agora: crie uma para qualquer pessoa, marcando “Qualquer pessoa pode entrar”."],
  lobbyWaiting: [(names) => `at the table: ${names}`, (names) => `na mesa: ${names}`],
  seatsFree: [(n) => `${n} ${n === 1 ? "seat" : "seats"} free`,
    (n) => `${n} ${n === 1 ? "lugar livre" : "lugares livres"}`],
  anyPlayers: ["Any", "Todas"],
  refresh: ["Refresh", "Atualizar"],
  publicMatch: ["Anyone may join (listed in Open matches)",
    "Qualquer pessoa pode entrar (listada em Partidas abertas)"],
  yourTurn: ["Your turn", "Sua vez"],
  theirTurn: ["Their turn", "Vez deles"],
  partnerTurn: ["Partner's turn", "Vez do parceiro"],
  against: ["vs", "contra"],
  with: ["with", "com"],
  youHave: [(left) => `${left} left`, (left) => `faltam ${left}`],
  theyHave: [(left) => `they have ${left}`, (left) => `eles têm ${left}`],
  overdue: ["time is up", "tempo esgotado"],
  waitingSeats: ["Waiting for players", "Aguardando jogadores"],
  finished: ["Finished", "Terminada"],
  wonShort: ["Won", "Vencida"],
  lostShort: ["Lost", "Perdida"],
  cancelled: ["Cancelled", "Cancelada"],
  invitation: ["Invitation", "Convite"],
  back: ["All matches", "Todas as partidas"],
  language: ["Português", "English"],
  table: ["Team", "Dupla"],
  us: ["Us", "Nós"],
  them: ["Them", "Eles"],
  games: ["Games", "Jogos"],
  stake: ["Hand worth", "A mão vale"],
  vira: ["Vira", "Vira"],
  manilhas: ["Manilhas", "Manilhas"],
  yourCards: ["Your cards", "Suas cartas"],
  trick: ["Tricks", "Vazas"],
  toAct: ["to play", "a jogar"],
  you: ["you", "você"],
  bot: ["Bot", "Robô"],
  levels: {
    random: ["random", "aleatório"],
    easy: ["easy", "fácil"],
    medium: ["medium", "médio"],
    hard: ["hard", "difícil"],
  },
  seat: ["Seat", "Lugar"],
  emptySeat: ["free seat", "lugar livre"],
  invited: ["invited", "convidado"],
  faceDown: ["face down", "coberta"],
  trickDone: [(n) => `Trick ${n}`, (n) => `Vaza ${n}`], // (a finished trick's cards, dimmed)
  hidden: ["hidden card", "carta escondida"],
  playFaceDown: ["Face down", "Coberta"],
  faceDownHint: ["Played hidden: it counts 0 in the trick, and nobody else sees which card it was.",
    "Jogada escondida: vale 0 na vaza, e ninguém mais vê que carta era."],
  slot: ["Card", "Carta"],
  // a match waiting for players: the link to share, the invitation to answer, a seat to take
  waitingShare: ["Waiting for players. Share this link:",
    "Aguardando jogadores. Compartilhe este link:"],
  waitingOpen: ["Waiting for players.", "Aguardando jogadores."],
  waitingFor: [(names) => `Waiting for ${names} to accept the invitation.`,
    (names) => `Aguardando ${names} aceitar o convite.`],
  publicLink: ["A public match: anyone who opens the link can take a seat.",
    "Partida aberta: quem abrir o link pode ocupar um lugar."],
  invitesYou: [(names, n) => `${names} ${n === 1 ? "invites" : "invite"} you to play.`,
    (names, n) => `${names} ${n === 1 ? "convida" : "convidam"} você para jogar.`],
  invitedHere: ["You are invited to this match.", "Você foi convidado para esta partida."],
  perTurn: [(time) => `${time} per turn`, (time) => `${time} por jogada`],
  accept: ["Accept", "Aceitar"],
  decline: ["Decline", "Recusar"],
  declined: ["Invitation declined.", "Convite recusado."],
  invitationClosed: ["This invitation no longer holds: it expired or was withdrawn, or the match has started.",
    "Este convite não vale mais: expirou ou foi retirado, ou a partida já começou."],
  takeSeat: ["Take a seat", "Ocupar um lugar"],
  leaveMatch: ["Leave this match", "Sair desta partida"],
  leaveConfirm: ["Leave this match before it starts? When nobody else has taken a seat, it is cancelled and its invitations withdrawn.",
    "Sair desta partida antes de começar? Se ninguém mais ocupou um lugar, ela é cancelada e os convites retirados."],
  left: ["You left the match.", "Você saiu da partida."],
  // handles: mine, and friends' on the new-match form
  myHandle: ["Your handle, for friends to challenge you",
    "Seu nome de usuário, para os amigos desafiarem você"],
  handle: ["Handle", "Nome de usuário"],
  handleHint: ["3 to 20 of a-z 0-9 _ -. Leave it empty to have none.",
    "De 3 a 20 entre a-z 0-9 _ -. Deixe vazio para não ter um."],
  save: ["Save", "Salvar"],
  handleSaved: [(handle) => `Saved: you are @${handle}.`, (handle) => `Salvo: você é @${handle}.`],
  handleRemoved: ["Saved: you have no handle now.", "Salvo: agora você não tem nome de usuário."],
  handleTaken: ["That handle is taken: choose another.",
    "Esse nome de usuário já é de outra pessoa: escolha outro."],
  handleRule: ["A handle is 3 to 20 of a-z 0-9 _ - (no spaces).",
    "Um nome de usuário tem de 3 a 20 entre a-z 0-9 _ - (sem espaços)."],
  inviteHandles: ["Friends' handles (optional)", "Nomes de usuário dos amigos (opcional)"],
  inviteHandlesHint: ["They find an invitation in their matches, their seats kept (partners first). Several: separate with commas. Other friends join by the link.",
    "Eles recebem um convite nas partidas deles, com o lugar guardado (parceiros primeiro). Vários: separe com vírgulas. Os outros amigos entram pelo link."],
  badHandle: [(handle) => `“${handle}” is not a handle: 3 to 20 of a-z 0-9 _ -.`,
    (handle) => `“${handle}” não é um nome de usuário: de 3 a 20 entre a-z 0-9 _ -.`],
  handleTwice: [(handle) => `@${handle} is named twice.`,
    (handle) => `@${handle} aparece duas vezes.`],
  tooManyHandles: [(n, friends) => `${n} handles for ${friends} ${friends === 1 ? "friend" : "friends"}: choose more friends to invite, or name fewer.`,
    (n, friends) => `${n} nomes de usuário para ${friends} ${friends === 1 ? "amigo" : "amigos"}: escolha mais amigos a convidar, ou indique menos.`],
  noSuchHandle: [(handle) => `Nobody has the handle @${handle}.`,
    (handle) => `Ninguém tem o nome de usuário @${handle}.`],
  inviteSelf: ["That is your own handle: name a friend's.",
    "Esse é o seu próprio nome de usuário: indique o de um amigo."],
  blockedBy: [(who) => `${who} does not take your invitations.`,
    (who) => `${who} não aceita convites seus.`],
  tooManyInvitations: [(who) => `${who} has too many invitations waiting for an answer: try again later.`,
    (who) => `${who} tem convites demais esperando resposta: tente mais tarde.`],
  someoneInvited: ["A player you invite", "Um jogador convidado"],
  deadline: ["Time left", "Tempo restante"],
  won: ["You won the match!", "Partida ganha!"], // (pt: one player or a team)
  lost: ["You lost the match.", "Partida perdida."],
  over: ["Match over", "Fim de partida"],
  endedBy: ["How it ended", "Como terminou"],
  rematch: ["Rematch", "Revanche"],
  replay: ["Replay", "Rever a partida"],
  review: ["Computer review", "Análise do computador"],
  reviewing: [(done, all) => `Reviewing… ${done} of ${all} moves`,
    (done, all) => `Analisando… ${done} de ${all} lances`],
  handTrick: [(hand, trick) => `Hand ${hand}, trick ${trick}`,
    (hand, trick) => `Mão ${hand}, rodada ${trick}`],
  holding: ["holding", "com"],
  seeIt: ["See it", "Ver"],
  reviewMove: [(played, best, was, could) => `you played ${played}; better ${best} · chance to win ${was} → ${could}`,
    (played, best, was, could) => `você jogou ${played}; melhor ${best} · chance de ganhar ${was} → ${could}`],
  seatMistakes: [(who, n, of) => `${who}: ${n} ${n === 1 ? "mistake" : "mistakes"} in ${of} ${of === 1 ? "decision" : "decisions"}`,
    (who, n, of) => `${who}: ${n} ${n === 1 ? "erro" : "erros"} em ${of} ${of === 1 ? "decisão" : "decisões"}`],
  noMistakes: ["No mistake of yours found: well played.", "Nenhum erro seu encontrado: bem jogado."],
  reviewHow: ["Each decision judged by the hard bot from what its seat could see then; a mistake gives away at least 5 points of the chance to win the match.",
    "Cada decisão julgada pelo robô difícil com o que aquele lugar via então; um erro perde pelo menos 5 pontos da chance de ganhar a partida."],
  fairness: ["Fair deals", "Cartas justas"],
  commitment: ["Commitment", "Compromisso"],
  secret: ["Secret", "Segredo"],
  points: ["points", "pontos"],
  point: ["point", "ponto"],
  seatCount: ["players", "jogadores"],
  calls: ["Calls", "Pedidos"],
  calledBy: ["calls", "pede"],
  spectator: ["You are watching this match.", "Você está assistindo a esta partida."],
  pending11: ["play this hand?", "jogar esta mão?"],
  pending11For: [(n) => `play this hand for ${n}\u00a0points?`, (n) => `jogar esta mão valendo\u00a0${n}?`],
  pending11Theirs: ["they decide whether to play it", "eles decidem se jogam"],
  youCall: ["You call", "Você pede"],
  blind: ["cards played blind", "cartas jogadas às cegas"],
  partnerCards: ["Partner's cards", "Cartas do parceiro"],
  log: ["Table talk", "Conversa da mesa"],
  tie: ["tie", "empate"],
  joinPrompt: ["You are invited to a match. Sit down to join it.",
    "Você foi convidado para uma partida. Sente-se para entrar."],
  notFound: ["No such match.", "Partida não encontrada."],
  joinClosed: ["This match has no free seat any more: it has started, ended, or its seats are taken.",
    "Esta partida não tem mais lugar livre: já começou, terminou ou os lugares foram ocupados."],
  joinBadCode: ["This invitation link is not right: ask for it again.",
    "Este link de convite não está certo: peça-o de novo."],
  offline: ["No connection to the server. Check your connection and try again.",
    "Sem conexão com o servidor. Verifique sua conexão e tente de novo."],
  serverError: ["The server could not answer", "O servidor não conseguiu responder"],
  reconnecting: ["Connection lost: reconnecting…", "Conexão perdida: reconectando…"],
  unreachable: ["Cannot reach the server. Retrying…",
    "Não foi possível falar com o servidor. Tentando de novo…"],
  sending: ["Sending your move…", "Enviando sua jogada…"],
  pressedSlow: ["Sending…", "Enviando…"],
  partner: ["partner", "parceiro"],
  lastHand: [(n) => `Last hand (hand ${n})`, (n) => `Última mão (mão ${n})`],
  resign: ["Resign…", "Desistir…"],
  resignAsk: ["Give up this match? It counts as lost.", "Desistir desta partida? Ela conta como perdida."],
  resignYes: ["Resign", "Desistir"],
  resignNo: ["Keep playing", "Continuar jogando"],
  clockWarning: [(n, of) => `The clock has played for you ${n === 1 ? "once" : `${n} times`} in a row: at ${of} in a row your side loses the match.`,
    (n, of) => `O relógio já jogou por você ${n === 1 ? "uma vez" : `${n} vezes`} seguida${n === 1 ? "" : "s"}: com ${of} seguidas seu time perde a partida.`],
  sendingOffline: ["No connection: your move goes as soon as it is back.",
    "Sem conexão: sua jogada vai assim que ela voltar."],
  stopSending: ["Don't send it", "Não enviar"],
  tooLate: ["The table moved on before your move reached it: see where it stands now.",
    "A mesa mudou antes da sua jogada chegar: veja como ela está agora."],
  notInPlay: ["This match is not in play now.", "Esta partida não está em jogo agora."],
  prev: ["Previous", "Anterior"],
  next: ["Next", "Próximo"],
  step: ["Step", "Passo"],
  replayLabel: ["Replay", "Repetição"],
  reviewNote: ["Review", "Análise"],
  closeReplay: ["Close the replay", "Fechar a revisão"],
  closeError: ["Close this message", "Fechar esta mensagem"],
  // what the table's Portuguese words mean, under them on the buttons (English only)
  hints: {
    raise: [(n) => `raise to ${n}`, null],
    accept: ["accept", null],
    refuse: ["fold", null],
    play11: ["play it", null],
  },
  they: ["They", "Eles"],
  // how a hand was won: `w` the side that won, `l` the one that lost, each {we, name, one}
  // (`we`: my side; `name`: "They", "Team 2" or a player's name; `one`: a singular subject)
  handEnds: {
    tricks: [(w) => `${w.we ? "We" : w.name} won the tricks`,
      (w) => w.we ? "Ganhamos as vazas" : `${w.name} ${w.one ? "ganhou" : "ganharam"} as vazas`],
    raise_refused: [(w, l) => `${l.we ? "We" : l.name} ran from the call`,
      (w, l) => l.we ? "Corremos do pedido" : `${l.name} ${l.one ? "correu" : "correram"} do pedido`],
    mao_de_onze_refused: [(w, l) => `${l.we ? "We" : l.name} gave up the mão de onze`,
      (w, l) => l.we ? "Corremos da mão de onze"
        : `${l.name} ${l.one ? "correu" : "correram"} da mão de onze`],
    illegal_call: [(w, l) => `${l.we ? "We" : l.name} made an illegal call`,
      (w, l) => l.we ? "Fizemos um pedido proibido"
        : `${l.name} ${l.one ? "fez" : "fizeram"} um pedido proibido`],
  },
  // how a match ended: the same sides; `you` when the one who lost is me
  matchEnds: {
    score: [(w) => `${w.we ? "We" : w.name} reached 12 points`,
      (w) => w.we ? "Chegamos a 12 pontos" : `${w.name} ${w.one ? "chegou" : "chegaram"} a 12 pontos`],
    resigned: [(w, l) => `${l.you ? "You" : l.we ? "We" : l.name} resigned`,
      (w, l) => l.you ? "Você desistiu" : l.we ? "Desistimos"
        : `${l.name} ${l.one ? "desistiu" : "desistiram"}`],
    timed_out: [(w, l) => `${l.you ? "You" : l.we ? "We" : l.name} ran out of time`,
      (w, l) => l.you ? "Você ficou sem tempo" : l.we ? "Ficamos sem tempo"
        : `${l.name} ${l.one ? "ficou" : "ficaram"} sem tempo`],
  },
  reasons: {
    tricks: ["tricks", "vazas"],
    raise_refused: ["refused the raise", "correram do pedido"],
    mao_de_onze_refused: ["gave up the mão de onze", "correram da mão de onze"],
    void: ["all tied: no points", "tudo empatado: sem pontos"],
    illegal_call: ["illegal call", "pedido proibido"],
    score: ["score", "placar"],
    resigned: ["resigned", "desistência"],
    timed_out: ["ran out of time", "tempo esgotado"],
    cancelled: ["cancelled", "cancelada"],
  },
  events: {
    played: [(who, card) => `${who} played ${card}`, (who, card) => `${who} jogou ${card}`],
    raised: [(who, word) => `${who}: ${word}`, (who, word) => `${who}: ${word}`],
    accepted: [(who) => `${who}: Desce!`, (who) => `${who}: Desce!`],
    refused: [(who) => `${who}: Corro!`, (who) => `${who}: Corro!`],
    trickWon: [(n, team) => `Trick ${n}: ${team}`, (n, team) => `Vaza ${n}: ${team}`],
    trickTied: [(n) => `Trick ${n}: tie`, (n) => `Vaza ${n}: empate`],
    handWon: [(team, pts) => `${team} +${pts}`, (team, pts) => `${team} +${pts}`],
    matchWon: [(w) => `${w.we ? "We" : w.name} won the match`,
      (w) => (w.we ? "Ganhamos a partida" : `${w.name} ${w.one ? "ganhou" : "ganharam"} a partida`)],
    dealt: [(n) => `Hand ${n} dealt`, (n) => `Mão ${n} dada`],
    joined: [(who) => `${who} sat down`, (who) => `${who} sentou`],
    eleven: [(who, yes) => `${who}: ${yes ? "Jogo!" : "Corro!"}`,
      (who, yes) => `${who}: ${yes ? "Jogo!" : "Corro!"}`],
    resigned: [(who) => `${who} resigned`, (who) => `${who} desistiu`],
    timedOut: [(who, lost, n) => (lost ? `${who}: time ran out, and with it the match`
      : `${who}: time ran out, the computer played (${n} in a row)`),
    (who, lost, n) => (lost ? `${who}: o tempo acabou, e com ele a partida`
      : `${who}: o tempo acabou, o computador jogou (${n} ${n === 1 ? "vez" : "vezes"} seguida${n === 1 ? "" : "s"})`)],
    forfeited: [(w) => `${w.we ? "We" : w.name} lost the match on time`,
      (w) => (w.we ? "Perdemos a partida por tempo" : `${w.name} ${w.one ? "perdeu" : "perderam"} a partida por tempo`)],
  },
  // the header's link to the rules, served by the server: docs/rules.md, or docs/regras.md
  rulesLink: ["Rules", "Regras"],
  rulesLinkTitle: ["The rules as this server plays them", "As regras como este servidor joga"],
  // the home screen: my key, my handle and the notifications, in a panel of their own
  settings: ["Settings", "Configurações"],
  // a join link opened without a key: who invites, to what match
  aMatchOf: [(players, ruleset) => `a ${players}\u2011player match, ${ruleset}`,
    (players, ruleset) => `uma partida de ${players} jogadores, ${ruleset}`],
  invitesYouTo: [(names, n, match) => `${names} ${n === 1 ? "invites" : "invite"} you to ${match}.`,
    (names, n, match) => `${names} ${n === 1 ? "convida" : "convidam"} você para ${match}.`],
  invitedTo: [(match) => `You are invited to ${match}.`,
    (match) => `Você foi convidado para ${match}.`],
  waitsIn: [(names, n, match) => `${names} ${n === 1 ? "is" : "are"} waiting for players in ${match}.`,
    (names, n, match) => `${names} ${n === 1 ? "espera" : "esperam"} jogadores em ${match}.`],
  joinHow: ["Give your name to sit down and join it.",
    "Dê o seu nome para sentar à mesa e entrar."],
  // a match the server will not create, by its error code (docs/api.md, POST /v1/matches)
  tooManyBotMatches: [(limit) => `You already have ${limit} unfinished ${limit === 1 ? "match" : "matches"} against the computer, the most this server allows: finish or resign one (in My matches) first.`,
    (limit) => `Você já tem ${limit} ${limit === 1 ? "partida" : "partidas"} contra o computador em andamento, o máximo que este servidor permite: termine uma ou desista de uma (em Minhas partidas) primeiro.`],
  tooManyHardBots: [(limit) => `You have reached this server's limit on unfinished matches against the computer, or on hard bots in them (${limit}): finish or resign one (in My matches) first.`,
    (limit) => `Você chegou ao limite deste servidor de partidas contra o computador em andamento, ou de robôs difíceis nelas (${limit}): termine uma ou desista de uma (em Minhas partidas) primeiro.`],
  tooManyWaiting: ["You already have the most matches waiting for players this server allows: leave one of them (in My matches) first, or wait until one fills.",
    "Você já tem o máximo de partidas aguardando jogadores que este servidor permite: saia de uma delas (em Minhas partidas) primeiro, ou espere até uma se completar."],
  tooManyCreated: [(s) => `You created many matches in a short time: try again in ${s} s.`,
    (s) => `Você criou muitas partidas em pouco tempo: tente de novo em ${s} s.`],
  showMyMatches: ["Show My matches", "Mostrar Minhas partidas"],
  // a record whose matches were neither won nor lost: a level seated on both teams
  bothTeams: [(n) => `${n} on both teams (neither won nor lost)`,
    (n) => `${n} nas duas duplas (nem vitória nem derrota)`],
};

// The "More rules" of the new-match form: each option of GET /v1/rulesets, its label, a
// one-line hint where the label is not enough, and each value's name (keyed by String(value)).
// An option or a value not listed here is shown by its own name (docs/rules.md#options).
const RULE_OPTIONS = {
  games_to_win: {
    label: ["Match", "Partida"],
    values: {
      1: ["one game to 12", "um jogo de 12"],
      2: ["best of three (queda)", "melhor de três (queda)"],
    },
  },
  first_dealer: {
    label: ["Who deals first", "Quem dá as cartas primeiro"],
    hint: ["The player after the dealer plays first.", "Quem está depois de quem dá começa."],
    values: {
      random: ["drawn at random", "sorteado"],
      0: ["you (the next player leads)", "você (o seguinte começa)"],
      before_you: ["the player before you (you lead)", "quem está antes de você (você começa)"],
    },
  },
  tie_leader: {
    label: ["Who leads after a tied trick", "Quem começa depois de uma vaza empatada"],
    values: {
      trick_leader: ["who led that trick", "quem abriu a vaza"],
      first_tied_card: ["who played the first tying card", "quem jogou a primeira carta do empate"],
      hand_mao: ["the mão (first to play in the hand)", "o mão (quem começou a mão)"],
    },
  },
  all_ties: {
    label: ["Three tied tricks", "Três vazas empatadas (cangou tudo)"],
    values: {
      void: ["nobody scores", "ninguém marca"],
      mao_team: ["the mão's team scores", "a dupla do mão marca"],
    },
  },
  response_mode: {
    label: ["Who answers a truco", "Quem responde ao truco"],
    hint: ["With 4 or 6 players: one partner's yes is the team's; to fold, each must fold. "
      + "The same for a mão de onze.", "Com 4 ou 6 jogadores: basta um parceiro aceitar; para "
      + "correr, todos têm de correr. O mesmo na mão de onze."],
    values: {
      any_accept_all_refuse: ["any accepts, all fold", "basta um aceitar"],
      first_response: ["the first answer counts", "vale a primeira resposta"],
      designated: ["only the next player", "só o jogador seguinte"],
    },
  },
  raise_cap: {
    label: ["Limit on calls", "Limite dos pedidos"],
    values: {
      ladder: ["up to doze (12)", "até doze (12)"],
      no_raise_if_accept_wins: ["none when the hand already wins the game",
        "nenhum quando a mão já dá o jogo"],
      needed_points: ["none past the points still needed", "nenhum além dos pontos que faltam"],
    },
  },
  iron_hand_blind: {
    label: ["Mão de ferro played blind", "Mão de ferro no escuro (escurinho)"],
    hint: ["Both teams at 11 (10 in Mineiro): nobody sees their cards.",
      "As duas duplas com 11 (10 no Mineiro): ninguém vê as próprias cartas."],
    values: { true: ["yes", "sim"], false: ["no, cards seen", "não, cartas à vista"] },
  },
  iron_hand_value: {
    label: ["Mão de ferro worth (points)", "Valor da mão de ferro (pontos)"],
    hint: ["Blank: the ruleset's own value.", "Em branco: o valor da modalidade."],
  },
  face_down: {
    label: ["Playing a card face down", "Jogar coberta (encoberta)"],
    hint: ["From the second trick on; the card counts 0.",
      "A partir da segunda vaza; a carta vale 0."],
    values: { true: ["allowed", "pode"], false: ["not allowed", "não pode"] },
  },
  face_down_after_tie: {
    label: ["Face down after a tied trick", "Coberta depois de empate"],
    hint: ["In the trick right after a tie.", "Na vaza logo depois de um empate."],
    values: { true: ["allowed", "pode"], false: ["not allowed", "não pode"] },
  },
  max_face_down_per_team_per_trick: {
    label: ["Face-down cards per team in a trick", "Cartas cobertas por dupla numa vaza"],
    values: { null: ["no limit", "sem limite"], 1: ["at most one", "no máximo uma"] },
  },
  force_highest_after_first_tie: {
    label: ["After a tied first trick", "Depois de empatar a primeira vaza"],
    values: {
      false: ["any card", "qualquer carta"],
      true: ["strongest card, face up", "a carta mais forte, aberta"],
    },
  },
  illegal_call_policy: {
    label: ["Truco in a mão de onze or de ferro", "Truco na mão de onze ou de ferro"],
    values: {
      reject: ["not allowed", "não vale"],
      lose_game: ["the caller's team loses the game", "a dupla que pediu perde o jogo"],
    },
  },
};

/** The words of rule option `option` in the current language: `label`, `hint` (or null),
 * `value(v)`, a value's name (its own name when the client does not know it), and `order`. */
export function ruleWords(option) {
  const index = lang() === "pt" ? 1 : 0;
  const known = RULE_OPTIONS[option] || {};
  const values = known.values || {};
  const order = Object.keys(RULE_OPTIONS).indexOf(option);
  return {
    order: order < 0 ? Infinity : order, // (the form's order; an unknown option last)
    label: known.label ? known.label[index] : option.replaceAll("_", " "),
    hint: known.hint ? known.hint[index] : null,
    value: (v) => (values[String(v)] ? values[String(v)][index] : String(v)),
  };
}

const LANG_KEY = "truco.lang";

export function lang() {
  const chosen = localStorage.getItem(LANG_KEY);
  if (chosen === "pt" || chosen === "en") return chosen;
  return (navigator.language || "en").toLowerCase().startsWith("pt") ? "pt" : "en";
}

export function setLang(value) {
  localStorage.setItem(LANG_KEY, value);
  document.documentElement.lang = value === "pt" ? "pt-BR" : "en";
}

/** The label `key` in the current language (a group, such as "events": its labels). */
export function t(key) {
  const index = lang() === "pt" ? 1 : 0;
  const found = LABELS[key];
  if (found === undefined) return key;
  if (Array.isArray(found)) return found[index];
  return Object.fromEntries(Object.entries(found).map(([k, v]) => [k, v[index]]));
}
