/**
 * Common function words (articles, pronouns, auxiliaries, prepositions, conjunctions, question
 * words) of German, French, Spanish, Italian, Portuguese and Dutch, of three to seven letters and
 * written in ASCII letters: the lengths and letters a short unknown word is read as a slip of an
 * English function word from (see `mistypedFunctionWord`). Such a word is a correct word, not a
 * typo: "Was ist ROS 2?" was read as "Was its ROS 2?" ("ist" is "its" with two letters swapped),
 * "ils ont" as "ils not", "wer" as "were", "als" as "also". Words English also has ("die", "was")
 * are listed too: English knowing them keeps them as typed before this list is asked.
 */
export const OTHER_LANGUAGE_WORDS: ReadonlySet<string> = new Set(
  [
    // German
    `der die das den dem des ein eine einen einem einer eines und oder aber doch sondern denn weil
    dass wenn als wie was wer wen wem wessen warum wieso weshalb wann woher wohin welche welcher
    welches ist sind bin bist seid war waren wird werden wurde wurden hat habe haben hast hatte
    kann kannst muss soll sollte will nicht kein keine auch noch schon nur sehr mit von vom zum zur
    bei aus auf nach vor durch gegen ohne ich sie wir ihr mich dich sich uns euch mein dein sein
    seine ihre unser euer dies diese dieser dieses jene hier dort immer nie man alle viel mehr gibt
    heisst etwas`,
    // French
    `les des une est sont ont avec dans pour par sur sous mais donc car que qui quoi quel quelle
    quels quelles comment quand elle elles ils nous vous leur leurs ces cet cette mon ton son mes
    tes ses notre votre aux pas plus tout tous toute toutes aussi bien tres avoir etre fait peut
    entre sans chez comme ceci cela`,
    // Spanish
    `los las una uno unos unas del como para por con sin sobre pero porque cuando donde cual cuales
    quien quienes esta este esto estos estas ese esa eso son eres somos fue era hay tiene puede muy
    mas tambien nos sus mis tus hasta desde hacia segun`,
    // Italian
    `gli dei degli delle della dello che chi cosa dove perche non sono sei siamo hanno nel nella
    sul sulla anche questo questa quello quella loro suo`,
    // Portuguese
    `uma uns umas dos das nas com sem onde qual quem isso isto esse essa ele ela eles elas seu sua
    nao sim muito tem ser foi sao`,
    // Dutch
    `het een van dat niet zijn ook wat hoe wie waar wanneer waarom met voor naar aan uit over door
    maar dus omdat wordt worden kunnen moet heeft hebben jij hij zij wij jullie ons onze mijn haar
    deze dit geen wel nog`,
  ]
    .join(' ')
    .split(/\s+/)
    .filter((word) => word.length >= 3 && word.length <= 7),
);
