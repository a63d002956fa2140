// grammar/PTX.g4 - ANTLR4 lexer and parser for PTX (ISA up to 9.0, as ptxas 13.0 reads it).
//
// Design: the grammar is generic where PTX is regular, and all per-instruction knowledge
// (which opcodes exist, which modifiers/types/operand counts are legal, which .version and
// .target they need) lives in tables in frontend/ (ptx_instructions.def), not here.
//  - An instruction is `[@[!]pred] opcode(.modifier)* operand, ... ;`. The opcode with all its
//    modifiers is ONE token (ID: `ld.global.nc.v4.f32`, `cp.async.bulk.shared::cluster.global`),
//    split by the AST builder. Special registers (`%tid.x`) lex the same way.
//  - Type/qualifier words in declarations (`.u32`, `.v4`, `.ptr`) are generic DOT_ID tokens;
//    only the words that steer the parse (.entry, .reg, .global, .align ...) are keywords.
//  - Every decision is LL(1) or LL(2) except an operand starting with '(' (a call's argument
//    list versus a parenthesised expression), which only call instructions use. There is no
//    left recursion and no backtracking, so parse time is linear.
//  - The frontend parses one top-level chunk at a time (frontend/ptx_chunker.cpp finds the
//    boundaries), so `module` is "a sequence of top-level items", not necessarily a whole file.
grammar PTX;

module : item* EOF ;

item
  : versionDir
  | targetDir
  | addressSizeDir
  | fileDir
  | sectionDir
  | pragmaDir
  | aliasDir
  | linkage* (functionDecl | varDecl ';')
  ;

versionDir     : VERSION (DEC_FLOAT | INT) ;
targetDir      : TARGET ID (',' ID)* ;
addressSizeDir : ADDRESS_SIZE INT ;
fileDir        : FILE INT STRING (',' INT ',' INT)? ;
pragmaDir      : PRAGMA STRING (',' STRING)* ';' ;
aliasDir       : ALIAS ID ',' ID ';' ;

// `.section .debug_info { .b32 1 .b8 2, 3  $L__x: .b64 $L__func_begin0 ... }`
sectionDir  : SECTION (DOT_ID | ID) '{' sectionItem* '}' ;
sectionItem : ID ':'
            | DOT_ID sectionVal (',' sectionVal)*
            ;
sectionVal  : DOT_ID (('+' | '-') INT)? | STRING | expr ;   // .debug_loc+131

linkage : VISIBLE | EXTERN | WEAK | COMMON ;

functionDecl
  : (ENTRY | FUNC) ('(' paramList? ')')? ID ('(' paramList? ')')? funcAttr* (block | ';')
  ;
funcAttr
  : DOT_ID (INT (',' INT)*)?          // .maxntid 256,1,1  .explicitcluster ...
  | NORETURN
  | PRAGMA STRING (',' STRING)* ';'
  ;
paramList : paramDecl (',' paramDecl)* ;
paramDecl : (PARAM | REG) qualifier* ID arraySuffix* ;

// Declarations: `.global .align 4 .u32 x[4] = {1,2,3,4};`  `.reg .b32 %r<10>, %q;`
varDecl    : stateSpace qualifier* declarator (',' declarator)* ;
stateSpace : REG | PARAM | GLOBAL | SHARED | CONST | LOCAL | TEX ;
qualifier
  : DOT_ID
  | ALIGN INT
  | GLOBAL | SHARED | CONST | LOCAL | PARAM
  | ATTRIBUTE '(' DOT_ID ('(' expr (',' expr)* ')')? (',' DOT_ID)* ')'
  ;
declarator  : ID ('<' INT '>')? arraySuffix* ('=' initializer)? ;
arraySuffix : '[' INT? ']' ;
initializer
  : '{' (initializer (',' initializer)*)? '}'
  | (INT | HEX_FLOAT | DEC_FLOAT)     // fast path: one node per element of big tables
  | ID '=' (ID | expr)                // samplerref fields: filter_mode = linear
  | ID '(' ID ')' (('+' | '-') expr)?  // generic(sym), mask(...)
  | expr
  ;

block : '{' statement* '}' ;

statement
  : ID ':'                                         // label
  | instruction ';'
  | varDecl ';'
  | block
  | LOC INT INT INT locAttrs?
  | PRAGMA STRING (',' STRING)* ';'
  | CALLPROTOTYPE ('(' paramList? ')')? ID '(' paramList? ')' NORETURN? ';'
  | (BRANCHTARGETS | CALLTARGETS) ID (',' ID)* ';'
  | SECTION (DOT_ID | ID) '{' sectionItem* '}'
  ;
// `.loc file line column [, function_name label[+offset], inlined_at file line column]`: the
// two attributes come together or not at all (HW: ptxas 13.0.88 reports a parsing error for
// either alone). Each has a fixed length: an open-ended list here once ate the opcode of the
// next statement (`... inlined_at 1 10 5` then `bra.uni $L__BB0_2;`). The builder checks the
// two words.
locAttrs      : ',' locFunction ',' locInlinedAt ;
locFunction   : ID ID ('+' INT)? ;                 // function_name $L__info_string0+4
locInlinedAt  : ID INT INT INT ;                   // inlined_at 1 10 5

instruction : guard? ID (operand (',' operand)*)? ;
guard       : '@' '!'? ID ;

operand
  : '(' (operand (',' operand)*)? ')'                   // call argument / return list
  | '{' (operand (',' operand)*)? '}'                   // vector
  | '[' operand (',' operand)* ']'                      // address, or [tex, sampler, coords]
  | (ID | INT | HEX_FLOAT | DEC_FLOAT)                  // fast path: %r1, 42, 0f3F800000, $L
  | expr ('|' expr)?                                    // value; `%p|%q` pair of setp results
  ;

// Constant expressions, flat: the builder applies precedence (* / over + - over << >> over
// & ^), so an operand costs two tree nodes, not one per precedence level.
expr    : term (binop term)* ;
binop   : '+' | '-' | '*' | '/' | '<<' | '>>' | '&' | '^' ;
term    : ('-' | '!' | '~')* (INT | DEC_FLOAT | HEX_FLOAT | ID | '(' expr ')') ;

// ---- Lexer ----------------------------------------------------------------------------------
VERSION        : '.version' ;
TARGET         : '.target' ;
ADDRESS_SIZE   : '.address_size' ;
FILE           : '.file' ;
LOC            : '.loc' ;
SECTION        : '.section' ;
PRAGMA         : '.pragma' ;
ALIAS          : '.alias' ;
ENTRY          : '.entry' ;
FUNC           : '.func' ;
VISIBLE        : '.visible' ;
EXTERN         : '.extern' ;
WEAK           : '.weak' ;
COMMON         : '.common' ;
ALIGN          : '.align' ;
REG            : '.reg' ;
PARAM          : '.param' ;
GLOBAL         : '.global' ;
SHARED         : '.shared' ;
CONST          : '.const' ;
LOCAL          : '.local' ;
TEX            : '.tex' ;
ATTRIBUTE      : '.attribute' ;
CALLPROTOTYPE  : '.callprototype' ;
CALLTARGETS    : '.calltargets' ;
BRANCHTARGETS  : '.branchtargets' ;
NORETURN       : '.noreturn' ;

HEX_FLOAT : '0' [fF] HEXDIG HEXDIG HEXDIG HEXDIG HEXDIG HEXDIG HEXDIG HEXDIG
          | '0' [dD] HEXDIG HEXDIG HEXDIG HEXDIG HEXDIG HEXDIG HEXDIG HEXDIG
                     HEXDIG HEXDIG HEXDIG HEXDIG HEXDIG HEXDIG HEXDIG HEXDIG ;
DEC_FLOAT : DIGIT+ '.' DIGIT* EXPONENT?
          | DIGIT+ EXPONENT ;
INT       : ( '0' [xX] HEXDIG+ | '0' [bB] [01]+ | DIGIT+ ) [uU]? ;

// Opcodes with modifiers, identifiers, registers, special registers: one token.
ID     : [a-zA-Z_$%] IDCHAR* ('.' IDCHAR+ ('::' IDCHAR+)*)* ;
// A word after a dot: types, qualifiers, section names (`.v4.f32` stays one token).
DOT_ID : '.' [a-zA-Z_] IDCHAR* ('::' IDCHAR+)* ('.' IDCHAR+ ('::' IDCHAR+)*)* ;
STRING : '"' (~["\\\r\n] | '\\' .)* '"' ;

LPAREN : '(' ; RPAREN : ')' ; LBRACE : '{' ; RBRACE : '}' ; LBRACK : '[' ; RBRACK : ']' ;
COMMA : ',' ; SEMI : ';' ; COLON : ':' ; AT : '@' ; BANG : '!' ; PIPE : '|' ;
PLUS : '+' ; MINUS : '-' ; STAR : '*' ; SLASH : '/' ; LT : '<' ; GT : '>' ; EQ : '=' ;
TILDE : '~' ; AMP : '&' ; CARET : '^' ; SHL : '<<' ; SHR : '>>' ;

WS            : [ \t\r\n\f]+ -> skip ;
LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
// Anything else becomes one bad token the parser reports (never a lexer hang or crash).
BAD_CHAR : . ;

fragment IDCHAR   : [a-zA-Z0-9_$] ;
fragment DIGIT    : [0-9] ;
fragment HEXDIG   : [0-9a-fA-F] ;
fragment EXPONENT : [eE] [+-]? DIGIT+ ;
