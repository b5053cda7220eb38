// The toy grammar's lexicon (see toy_lexicon.hpp). Words starting with h are all "h muet"
// (homme, hôpital, hôtel), so French elides before them; homographs across word classes
// (la porte / il porte) are left out, so every French sentence has one reading.
// Introduced in chapter 01.
#include "common/data/toy_lexicon.hpp"

#include <set>

namespace attn::data::toy {
namespace {

constexpr Gender m = Gender::masculine;
constexpr Gender f = Gender::feminine;
constexpr NounKind person = NounKind::person;
constexpr NounKind animal = NounKind::animal;
constexpr NounKind thing = NounKind::thing;

// Regular French adjectives: feminine adds "e" (unless there is one), plurals add "s".
Adjective regular(const std::string& masculine, const std::string& english, bool before_noun = false) {
    const std::string feminine = masculine.back() == 'e' ? masculine : masculine + "e";
    const std::string masculine_plural = masculine.back() == 's' ? masculine : masculine + "s";
    return Adjective{masculine, feminine, masculine_plural, feminine + "s", english, before_noun, ""};
}

}  // namespace

const std::vector<Noun>& nouns() {
    static const std::vector<Noun> table = {
        {"homme", "hommes", m, "man", "men", person},            {"femme", "femmes", f, "woman", "women", person},
        {"enfant", "enfants", m, "child", "children", person},   {"garçon", "garçons", m, "boy", "boys", person},
        {"fille", "filles", f, "girl", "girls", person},         {"médecin", "médecins", m, "doctor", "doctors", person},
        {"professeur", "professeurs", m, "teacher", "teachers", person},
        {"étudiant", "étudiants", m, "student", "students", person},
        {"voisin", "voisins", m, "neighbour", "neighbours", person},
        {"voisine", "voisines", f, "neighbour", "neighbours", person},
        {"ami", "amis", m, "friend", "friends", person},         {"amie", "amies", f, "friend", "friends", person},
        {"roi", "rois", m, "king", "kings", person},             {"reine", "reines", f, "queen", "queens", person},
        {"soldat", "soldats", m, "soldier", "soldiers", person}, {"boulanger", "boulangers", m, "baker", "bakers", person},
        {"fermier", "fermiers", m, "farmer", "farmers", person}, {"juge", "juges", m, "judge", "judges", person},
        {"avocat", "avocats", m, "lawyer", "lawyers", person},   {"chanteuse", "chanteuses", f, "singer", "singers", person},
        {"infirmière", "infirmières", f, "nurse", "nurses", person},
        {"chat", "chats", m, "cat", "cats", animal},             {"chien", "chiens", m, "dog", "dogs", animal},
        {"cheval", "chevaux", m, "horse", "horses", animal},     {"oiseau", "oiseaux", m, "bird", "birds", animal},
        {"souris", "souris", f, "mouse", "mice", animal},        {"lapin", "lapins", m, "rabbit", "rabbits", animal},
        {"vache", "vaches", f, "cow", "cows", animal},           {"loup", "loups", m, "wolf", "wolves", animal},
        {"renard", "renards", m, "fox", "foxes", animal},        {"poisson", "poissons", m, "fish", "fish", animal},
        {"ours", "ours", m, "bear", "bears", animal},            {"éléphant", "éléphants", m, "elephant", "elephants", animal},
        {"canard", "canards", m, "duck", "ducks", animal},       {"mouton", "moutons", m, "sheep", "sheep", animal},
        {"poule", "poules", f, "hen", "hens", animal},           {"abeille", "abeilles", f, "bee", "bees", animal},
        {"singe", "singes", m, "monkey", "monkeys", animal},
        {"maison", "maisons", f, "house", "houses", thing},      {"table", "tables", f, "table", "tables", thing},
        {"livre", "livres", m, "book", "books", thing},          {"voiture", "voitures", f, "car", "cars", thing},
        {"jardin", "jardins", m, "garden", "gardens", thing},    {"arbre", "arbres", m, "tree", "trees", thing},
        {"pomme", "pommes", f, "apple", "apples", thing},        {"fleur", "fleurs", f, "flower", "flowers", thing},
        {"fenêtre", "fenêtres", f, "window", "windows", thing},  {"lettre", "lettres", f, "letter", "letters", thing},
        {"clé", "clés", f, "key", "keys", thing},                {"chapeau", "chapeaux", m, "hat", "hats", thing},
        {"bateau", "bateaux", m, "boat", "boats", thing},        {"ville", "villes", f, "town", "towns", thing},
        {"rue", "rues", f, "street", "streets", thing},          {"pont", "ponts", m, "bridge", "bridges", thing},
        {"gâteau", "gâteaux", m, "cake", "cakes", thing},        {"verre", "verres", m, "glass", "glasses", thing},
        {"chaise", "chaises", f, "chair", "chairs", thing},      {"lit", "lits", m, "bed", "beds", thing},
        {"école", "écoles", f, "school", "schools", thing},      {"église", "églises", f, "church", "churches", thing},
        {"rivière", "rivières", f, "river", "rivers", thing},    {"montagne", "montagnes", f, "mountain", "mountains", thing},
        {"forêt", "forêts", f, "forest", "forests", thing},      {"marché", "marchés", m, "market", "markets", thing},
        {"château", "châteaux", m, "castle", "castles", thing},  {"jouet", "jouets", m, "toy", "toys", thing},
        {"sac", "sacs", m, "bag", "bags", thing},                {"boîte", "boîtes", f, "box", "boxes", thing},
        {"panier", "paniers", m, "basket", "baskets", thing},    {"cadeau", "cadeaux", m, "gift", "gifts", thing},
        {"tableau", "tableaux", m, "painting", "paintings", thing},
        {"journal", "journaux", m, "newspaper", "newspapers", thing},
        {"hôpital", "hôpitaux", m, "hospital", "hospitals", thing}, {"hôtel", "hôtels", m, "hotel", "hotels", thing},
        {"île", "îles", f, "island", "islands", thing},          {"orange", "oranges", f, "orange", "oranges", thing},
        {"ordinateur", "ordinateurs", m, "computer", "computers", thing},
        {"avion", "avions", m, "plane", "planes", thing},
    };
    return table;
}

const std::vector<Adjective>& adjectives() {
    static const std::vector<Adjective> table = {
        regular("rouge", "red"), regular("bleu", "blue"), regular("vert", "green"), regular("noir", "black"),
        {"blanc", "blanche", "blancs", "blanches", "white", false, ""}, regular("jaune", "yellow"),
        regular("gris", "grey"), regular("rapide", "fast"), regular("lent", "slow"),
        {"heureux", "heureuse", "heureux", "heureuses", "happy", false, ""}, regular("triste", "sad"),
        regular("fatigué", "tired"), regular("intelligent", "clever"), regular("riche", "rich"),
        regular("pauvre", "poor"), regular("froid", "cold"), regular("chaud", "hot"), regular("lourd", "heavy"),
        {"léger", "légère", "légers", "légères", "light", false, ""}, regular("rond", "round"),
        regular("carré", "square"), regular("propre", "clean"), regular("calme", "calm"),
        regular("bruyant", "noisy"), regular("célèbre", "famous"), regular("moderne", "modern"),
        regular("économique", "economic"), {"européen", "européenne", "européens", "européennes", "european", false, ""},
        {"central", "centrale", "centraux", "centrales", "central", false, ""}, regular("agricole", "agricultural"),
        {"français", "française", "français", "françaises", "french", false, ""},
        regular("grand", "big", true), regular("petit", "small", true), regular("jeune", "young", true),
        {"vieux", "vieille", "vieux", "vieilles", "old", true, "vieil"},
        {"beau", "belle", "beaux", "belles", "beautiful", true, "bel"},
        {"nouveau", "nouvelle", "nouveaux", "nouvelles", "new", true, "nouvel"},
        {"bon", "bonne", "bons", "bonnes", "good", true, ""}, regular("mauvais", "bad", true),
        regular("joli", "pretty", true), {"gros", "grosse", "gros", "grosses", "fat", true, ""},
        {"long", "longue", "longs", "longues", "long", true, ""},
    };
    return table;
}

const std::vector<Verb>& verbs() {
    static const std::vector<Verb> table = {
        {"mange", "mangent", "eats", "eat", true}, {"voit", "voient", "sees", "see", true},
        {"regarde", "regardent", "watches", "watch", true}, {"aime", "aiment", "likes", "like", true},
        {"cherche", "cherchent", "looks for", "look for", true}, {"trouve", "trouvent", "finds", "find", true},
        {"prend", "prennent", "takes", "take", true}, {"porte", "portent", "carries", "carry", true},
        {"achète", "achètent", "buys", "buy", true}, {"vend", "vendent", "sells", "sell", true},
        {"construit", "construisent", "builds", "build", true}, {"lave", "lavent", "washes", "wash", true},
        {"ouvre", "ouvrent", "opens", "open", true}, {"ferme", "ferment", "closes", "close", true},
        {"suit", "suivent", "follows", "follow", true}, {"attend", "attendent", "waits for", "wait for", true},
        {"connaît", "connaissent", "knows", "know", true}, {"dessine", "dessinent", "draws", "draw", true},
        {"peint", "peignent", "paints", "paint", true}, {"cache", "cachent", "hides", "hide", true},
        {"apporte", "apportent", "brings", "bring", true}, {"casse", "cassent", "breaks", "break", true},
        {"répare", "réparent", "repairs", "repair", true}, {"choisit", "choisissent", "chooses", "choose", true},
        {"écoute", "écoutent", "listens to", "listen to", true}, {"protège", "protègent", "protects", "protect", true},
        {"visite", "visitent", "visits", "visit", true}, {"nettoie", "nettoient", "cleans", "clean", true},
        {"pousse", "poussent", "pushes", "push", true}, {"tire", "tirent", "pulls", "pull", true},
        {"oublie", "oublient", "forgets", "forget", true}, {"montre", "montrent", "shows", "show", true},
        {"dort", "dorment", "sleeps", "sleep", false}, {"court", "courent", "runs", "run", false},
        {"chante", "chantent", "sings", "sing", false}, {"danse", "dansent", "dances", "dance", false},
        {"rit", "rient", "laughs", "laugh", false}, {"arrive", "arrivent", "arrives", "arrive", false},
        {"part", "partent", "leaves", "leave", false}, {"travaille", "travaillent", "works", "work", false},
        {"nage", "nagent", "swims", "swim", false}, {"tombe", "tombent", "falls", "fall", false},
        {"pleure", "pleurent", "cries", "cry", false}, {"joue", "jouent", "plays", "play", false},
        {"marche", "marchent", "walks", "walk", false}, {"saute", "sautent", "jumps", "jump", false},
    };
    return table;
}

const std::vector<Determiner>& determiners() {
    static const std::vector<Determiner> table = {
        {"le", "la", "l'", "l'", "the", false},          {"les", "les", "les", "les", "the", true},
        {"un", "une", "un", "une", "a", false},           {"des", "des", "des", "des", "some", true},
        {"ce", "cette", "cet", "cette", "this", false},   {"ces", "ces", "ces", "ces", "these", true},
        {"mon", "ma", "mon", "mon", "my", false},         {"mes", "mes", "mes", "mes", "my", true},
        {"notre", "notre", "notre", "notre", "our", false}, {"nos", "nos", "nos", "nos", "our", true},
        {"leur", "leur", "leur", "leur", "their", false}, {"leurs", "leurs", "leurs", "leurs", "their", true},
        {"votre", "votre", "votre", "votre", "your", false}, {"vos", "vos", "vos", "vos", "your", true},
        {"chaque", "chaque", "chaque", "chaque", "every", false},
        {"plusieurs", "plusieurs", "plusieurs", "plusieurs", "several", true},
        {"quelques", "quelques", "quelques", "quelques", "a few", true},
        {"deux", "deux", "deux", "deux", "two", true},   {"trois", "trois", "trois", "trois", "three", true},
    };
    return table;
}

const std::vector<Translation>& prepositions() {
    static const std::vector<Translation> table = {
        {"dans", "in"},       {"sur", "on"},      {"sous", "under"},     {"avec", "with"},
        {"devant", "in front of"}, {"derrière", "behind"}, {"pour", "for"}, {"sans", "without"},
        {"vers", "towards"},  {"contre", "against"}, {"après", "after"}, {"avant", "before"},
    };
    return table;
}

const std::vector<Translation>& conjunctions() {
    static const std::vector<Translation> table = {
        {"et", "and"},        {"mais", "but"},     {"ou", "or"},          {"donc", "so"},
        {"car", "for"},       {"parce que", "because"}, {"quand", "when"}, {"lorsque", "when"},
        {"pendant que", "while"}, {"tandis que", "whereas"}, {"puis", "then"}, {"si", "if"},
    };
    return table;
}

const std::vector<FixedPhrase>& fixed_phrases() {
    static const std::vector<FixedPhrase> table = {
        {{"la", "zone", "économique", "européenne"}, {"the", "european", "economic", "area"}},
        {{"la", "banque", "centrale", "européenne"}, {"the", "european", "central", "bank"}},
        {{"la", "politique", "agricole", "commune"}, {"the", "common", "agricultural", "policy"}},
        {{"le", "conseil", "de", "sécurité"}, {"the", "security", "council"}},
        {{"l'", "union", "européenne"}, {"the", "european", "union"}},
        {{"les", "nations", "unies"}, {"the", "united", "nations"}},
        {{"le", "parlement", "européen"}, {"the", "european", "parliament"}},
        {{"la", "cour", "suprême"}, {"the", "supreme", "court"}},
        {{"la", "guerre", "froide"}, {"the", "cold", "war"}},
        {{"la", "croix", "rouge"}, {"the", "red", "cross"}},
        {{"le", "premier", "ministre"}, {"the", "prime", "minister"}},
        {{"la", "mer", "méditerranée"}, {"the", "mediterranean", "sea"}},
    };
    return table;
}

std::vector<std::string> words_of(const std::string& text) {
    std::vector<std::string> words;
    std::string word;
    for (char c : text + " ") {
        if (c != ' ') {
            word += c;
        } else if (!word.empty()) {
            words.push_back(word);
            word.clear();
        }
    }
    return words;
}

namespace {

void add_words(std::set<std::string>& words, const std::string& text) {
    for (const std::string& word : words_of(text)) words.insert(word);
}

}  // namespace

std::vector<std::string> french_words() {
    // the relative pronoun and the elided conjunctions ("parce qu' un"), added by the grammar
    std::set<std::string> words = {"qui", "qu'", "lorsqu'"};
    for (const Noun& n : nouns()) add_words(words, n.french + " " + n.french_plural);
    for (const Adjective& a : adjectives())
        add_words(words, a.masculine + " " + a.feminine + " " + a.masculine_plural + " " + a.feminine_plural + " " +
                             a.masculine_before_vowel);
    for (const Verb& v : verbs()) add_words(words, v.french + " " + v.french_plural);
    for (const Determiner& d : determiners())
        add_words(words, d.masculine + " " + d.feminine + " " + d.masculine_before_vowel + " " + d.feminine_before_vowel);
    for (const Translation& t : prepositions()) add_words(words, t.french);
    for (const Translation& t : conjunctions()) add_words(words, t.french);
    for (const FixedPhrase& p : fixed_phrases()) words.insert(p.french.begin(), p.french.end());
    return std::vector<std::string>(words.begin(), words.end());
}

std::vector<std::string> english_words() {
    std::set<std::string> words = {"who", "that", "an"};   // relative pronouns, and "a" before a vowel
    for (const Noun& n : nouns()) add_words(words, n.english + " " + n.english_plural);
    for (const Adjective& a : adjectives()) add_words(words, a.english);
    for (const Verb& v : verbs()) add_words(words, v.english + " " + v.english_plural);
    for (const Determiner& d : determiners()) add_words(words, d.english);
    for (const Translation& t : prepositions()) add_words(words, t.english);
    for (const Translation& t : conjunctions()) add_words(words, t.english);
    for (const FixedPhrase& p : fixed_phrases()) words.insert(p.english.begin(), p.english.end());
    return std::vector<std::string>(words.begin(), words.end());
}

}  // namespace attn::data::toy
