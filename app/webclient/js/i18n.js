// Labels in Portuguese and English; the table's own words (Truco!, Desce, Corro...) are the
// same in both.

const LABELS = {
  en: {
    title: "Truco", tagline: "Truco Paulista and Mineiro against the computer or friends",
    yourName: "Your name", register: "Sit down", registered: "Playing as",
    tokenHelp: "Your key for this browser. Copy it to play from another device.",
    copy: "Copy", copied: "Copied", useToken: "Have a key from another device?",
    useTokenButton: "Use this key", signOut: "Leave this browser",
    newMatch: "New match", players: "Players", ruleset: "Rules", level: "Computer level",
    turnTimeout: "Time per turn", onTimeout: "When time runs out", noLimit: "No limit",
    autoPlay: "The computer plays for me", forfeit: "The team loses",
    moreOptions: "More rules", start: "Play against the computer",
    friends: "Friends to invite", invite: "Create for friends", partner: "partner",
    inbox: "My matches", noMatches: "No matches yet.", yourTurn: "Your turn",
    waitingFor: "Waiting", finished: "Finished", invitation: "Invitation", open: "Open",
    back: "All matches", language: "Português", table: "Table",
    us: "Us", them: "Them", score: "Score", games: "Games", stake: "Hand worth",
    vira: "Vira", manilhas: "Manilhas", yourCards: "Your cards", trick: "Trick",
    toAct: "to play", you: "you", bot: "Bot", seat: "Seat", emptySeat: "free seat",
    invited: "invited", faceDown: "face down", hidden: "hidden card", playFaceDown: "Face down",
    slot: "Card", waitingPlayers: "Waiting for players. Share this link:",
    deadline: "Time left", won: "You won the match!", lost: "You lost the match.",
    over: "Match over", endedBy: "How it ended", rematch: "Rematch", replay: "Replay",
    fairness: "Fair deals", commitment: "Commitment", secret: "Secret", handOver: "Hand",
    points: "points", calls: "Calls", yourTeam: "your team", theirTeam: "their team",
    calledBy: "calls", spectator: "You are watching this match.",
    pending11: "Mão de onze: play this hand?", reconnecting: "Reconnecting…",
    partnerCards: "Partner's cards", log: "Table talk", tie: "tie", join: "Join",
    joinPrompt: "You are invited to a match. Sit down to join it.", notFound: "No such match.",
    resign: "Resign", prev: "Previous", next: "Next", step: "Step",
    reasons: { tricks: "tricks", raise_refused: "refused the raise",
      mao_de_onze_refused: "gave up the mão de onze", void: "all tied: no points",
      illegal_call: "illegal call", score: "score", resigned: "resigned",
      timed_out: "ran out of time", cancelled: "cancelled" },
    events: {
      played: (who, card) => `${who} played ${card}`, raised: (who, word) => `${who}: ${word}`,
      accepted: (who) => `${who}: Desce!`, refused: (who) => `${who}: Corro!`,
      trickWon: (n, team) => `Trick ${n}: ${team}`, trickTied: (n) => `Trick ${n}: tie`,
      handWon: (team, pts) => `${team} +${pts}`, matchWon: (team) => `${team} won the match`,
      dealt: (n) => `Hand ${n} dealt`, joined: (who) => `${who} sat down`,
      eleven: (who, yes) => `${who}: ${yes ? "Jogo!" : "Corro!"}`,
      resigned: (who) => `${who} resigned`,
    },
  },
  pt: {
    title: "Truco", tagline: "Truco Paulista e Mineiro contra o computador ou os amigos",
    yourName: "Seu nome", register: "Sentar à mesa", registered: "Jogando como",
    tokenHelp: "Sua chave neste navegador. Copie-a para jogar de outro aparelho.",
    copy: "Copiar", copied: "Copiado", useToken: "Tem uma chave de outro aparelho?",
    useTokenButton: "Usar esta chave", signOut: "Sair deste navegador",
    newMatch: "Nova partida", players: "Jogadores", ruleset: "Regras", level: "Nível do computador",
    turnTimeout: "Tempo por jogada", onTimeout: "Quando o tempo acaba", noLimit: "Sem limite",
    autoPlay: "O computador joga por mim", forfeit: "A dupla perde",
    moreOptions: "Mais regras", start: "Jogar contra o computador",
    friends: "Amigos a convidar", invite: "Criar para amigos", partner: "parceiro",
    inbox: "Minhas partidas", noMatches: "Nenhuma partida ainda.", yourTurn: "Sua vez",
    waitingFor: "Aguardando", finished: "Terminada", invitation: "Convite", open: "Abrir",
    back: "Todas as partidas", language: "English", table: "Mesa",
    us: "Nós", them: "Eles", score: "Placar", games: "Jogos", stake: "A mão vale",
    vira: "Vira", manilhas: "Manilhas", yourCards: "Suas cartas", trick: "Vaza",
    toAct: "a jogar", you: "você", bot: "Robô", seat: "Lugar", emptySeat: "lugar livre",
    invited: "convidado", faceDown: "coberta", hidden: "carta escondida", playFaceDown: "Coberta",
    slot: "Carta", waitingPlayers: "Aguardando jogadores. Compartilhe este link:",
    deadline: "Tempo restante", won: "Vocês ganharam a partida!", lost: "Vocês perderam a partida.",
    over: "Fim de partida", endedBy: "Como terminou", rematch: "Revanche", replay: "Replay",
    fairness: "Cartas justas", commitment: "Compromisso", secret: "Segredo", handOver: "Mão",
    points: "pontos", calls: "Pedidos", yourTeam: "sua dupla", theirTeam: "a outra dupla",
    calledBy: "pede", spectator: "Você está assistindo a esta partida.",
    pending11: "Mão de onze: jogar esta mão?", reconnecting: "Reconectando…",
    partnerCards: "Cartas do parceiro", log: "Conversa da mesa", tie: "empate", join: "Entrar",
    joinPrompt: "Você foi convidado para uma partida. Sente-se para entrar.",
    notFound: "Partida não encontrada.", resign: "Desistir", prev: "Anterior", next: "Próximo",
    step: "Passo",
    reasons: { tricks: "vazas", raise_refused: "correram do pedido",
      mao_de_onze_refused: "correram da mão de onze", void: "tudo empatado: sem pontos",
      illegal_call: "pedido proibido", score: "placar", resigned: "desistência",
      timed_out: "tempo esgotado", cancelled: "cancelada" },
    events: {
      played: (who, card) => `${who} jogou ${card}`, raised: (who, word) => `${who}: ${word}`,
      accepted: (who) => `${who}: Desce!`, refused: (who) => `${who}: Corro!`,
      trickWon: (n, team) => `Vaza ${n}: ${team}`, trickTied: (n) => `Vaza ${n}: empate`,
      handWon: (team, pts) => `${team} +${pts}`, matchWon: (team) => `${team} ganharam a partida`,
      dealt: (n) => `Mão ${n} dada`, joined: (who) => `${who} sentou`,
      eleven: (who, yes) => `${who}: ${yes ? "Jogo!" : "Corro!"}`,
      resigned: (who) => `${who} desistiu`,
    },
  },
};

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

/** The label `key` in the current language. */
export function t(key) {
  return LABELS[lang()][key] ?? LABELS.en[key] ?? key;
}
