// Chapter 07, the Transformer: a placeholder run while the chapter's pieces are assembled.
#include <iostream>

int main() {
    std::cout << "Chapter 07 (the Transformer) is not assembled yet: its exercises can be checked with ./course check 07\n";
    return 0;
}
